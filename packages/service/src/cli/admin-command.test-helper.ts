import type { TestDatabase } from '../../test/fixtures.ts'
import { ADMIN_COMMANDS } from './admin.ts'

/**
 * Runs `till <command> … --database-url <the test database>` in-process, as the CLI parses and runs it,
 * and resolves with what it prints (or rejects with its error).
 */
export function adminCommandRunner(ctx: { tdb: TestDatabase }) {
  return async (command: string, ...args: string[]): Promise<string> => {
    const spec = ADMIN_COMMANDS[command]
    if (!spec) throw new Error(`no command ${command}`)
    const invocation = spec.prepare(command, [...args, '--database-url', ctx.tdb.url], {})
    if (invocation === 'help') throw new Error('help')
    return invocation.run(ctx.tdb.db)
  }
}
