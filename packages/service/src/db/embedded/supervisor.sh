#!/usr/bin/env bash
# Runs Till's embedded PostgreSQL server and stops it when Till goes away, however Till ends.
#
#   supervisor.sh REMOVE_DIR LOG_FILE POSTGRES [ARGS...]
#
# Standard input is a pipe whose other end only Till holds. When Till exits, even by SIGKILL, the kernel
# closes that end and `cat` below sees end-of-file: the server gets a fast shutdown (SIGINT), an
# immediate one (SIGQUIT) two seconds later and SIGKILL at four, so it never outlives Till by more than
# that. A server that stops on its own ends this script too, which Till notices. REMOVE_DIR, when not
# empty, is deleted once the server is stopped: the throwaway data of a run without --data-dir, with its
# log, LOG_FILE.
set -u
remove_dir=$1
log_file=$2
shift 2

# Keep the pipe on fd 3 for the watcher only; the server must not hold it.
exec 3<&0 </dev/null
"$@" 3<&- &
server=$!
cat <&3 >/dev/null 2>&1 &
watcher=$!
exec 3<&-

# Till's own stop() closes the pipe too; a signal to this script is the same request.
trap 'kill -INT "$server" 2>/dev/null' INT TERM HUP

# `wait -n` returns when either child ends, or early when a trapped signal arrives.
while kill -0 "$server" 2>/dev/null && kill -0 "$watcher" 2>/dev/null; do
  wait -n "$server" "$watcher"
done

asked_to_stop=false
if kill -0 "$server" 2>/dev/null; then
  asked_to_stop=true
  kill -INT "$server" 2>/dev/null
  ( sleep 2; kill -QUIT "$server" 2>/dev/null; sleep 2; kill -KILL "$server" 2>/dev/null ) &
  escalation=$!
  wait "$server"
  status=$?
  kill "$escalation" 2>/dev/null
else
  wait "$server"
  status=$?
  kill "$watcher" 2>/dev/null
fi

# A server that stopped on its own leaves its data and log: Till reads why, restarts the server on the same
# data, and removes both itself when it gives up (or the next Till does, finding this one gone).
if [ -n "$remove_dir" ] && [ "$asked_to_stop" = true ]; then
  rm -rf -- "$remove_dir"
  rm -f -- "$log_file"
fi
exit "$status"
