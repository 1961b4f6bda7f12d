import { ADMIN_COMMANDS } from './admin.ts'
import { runAdminCommand } from './admin-command.ts'
import { BACKUP_COMMANDS } from './backup-commands.ts'
import { ConfigError } from '../evm/index.ts'
import { UsageError } from './args.ts'
import { serve } from './serve.ts'

const HELP = `Usage: till <command> [options]

Commands:
  serve                Start the payments service (till serve --sandbox to try it; --config for EVM payments)
  migrate              Apply database migrations
  partner create       Create a partner and its first API key
  api-key create       Issue another API key for a partner
  api-key revoke       Revoke a partner's API keys
  merchant create      Create a merchant of a partner
  merchant update      Change a merchant: name, e-mail, logo, receiving accounts
  app create           Register a wallet app with a partner (its App-Id)
  webhooks list        A merchant's webhook endpoints (also: deliveries, redeliver, enable)
  transfers unapplied  A merchant's transfers that paid no payment, to refund
  user invite          Invite someone to a partner's dashboard (prints their link)
  backup               Back up the embedded server's data to a file, while Till runs
  restore              Make a new data directory from a backup

Run \`till <command> --help\` for a command's options.
`

/** The `till` CLI. Returns the exit status: 0 done, 1 failed, 2 wrong usage. */
export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const [first, second] = argv
  try {
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(HELP)
      return first === undefined ? 2 : 0
    }
    if (first === 'serve') return await serve(argv.slice(1), env)
    if (Object.hasOwn(BACKUP_COMMANDS, first)) return await BACKUP_COMMANDS[first]!(argv.slice(1), env)
    const twoWords = second === undefined ? undefined : `${first} ${second}`
    const command = twoWords && ADMIN_COMMANDS[twoWords] ? twoWords : first
    const spec = ADMIN_COMMANDS[command]
    if (!spec) throw new UsageError(`Unknown command "${argv.slice(0, 2).join(' ')}".\n\n${HELP}`)
    return await runAdminCommand(command, spec, argv.slice(command.split(' ').length), env)
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      return 2
    }
    process.stderr.write(`till: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}
