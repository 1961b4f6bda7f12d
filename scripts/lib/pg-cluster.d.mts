export interface StartPostgresOptions {
  /** TCP port on 127.0.0.1; a free one is chosen when omitted. */
  port?: number;
  /** Keep fsync and full-page writes on. Off by default: the data is thrown away. */
  durable?: boolean;
  /** Receives short progress lines (initdb, ready). */
  log?: (line: string) => void;
}

export interface PostgresCluster {
  /** postgres://till@127.0.0.1:PORT/till — user `till` is a superuser, trust auth, no password. */
  url: string;
  port: number;
  /** The cluster's PGDATA; removed by stop(). */
  dataDir: string;
  /** Fast shutdown (SIGINT), then removes the cluster's files. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Starts a throwaway PostgreSQL cluster in a temp directory, owned by this process. */
export declare function startPostgres(options?: StartPostgresOptions): Promise<PostgresCluster>;
