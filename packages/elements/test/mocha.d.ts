// The mocha globals web-test-runner provides in the browser (only what the tests use; no @types/mocha here).
type MochaBody = () => void | Promise<void>
declare function describe(title: string, body: () => void): void
declare function it(title: string, body: MochaBody): void
declare function before(body: MochaBody): void
declare function beforeEach(body: MochaBody): void
declare function after(body: MochaBody): void
declare function afterEach(body: MochaBody): void
