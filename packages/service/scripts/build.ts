// `pnpm build`, the service's step after tsc: what the compiled service reads beside its modules. The
// checkout page is bundled here, once, rather than at every start-up (docs/decisions/0027). Run through tsx:
// the page's build uses build-time tools that the compiled service never loads.
import { copyFile } from 'node:fs/promises'
import { writeCheckoutAssets } from '../src/checkout/page-assets.ts'
import { buildCheckoutAssets } from '../src/checkout/page-build.ts'

const dist = new URL('../dist/', import.meta.url)

await writeCheckoutAssets(new URL('checkout/assets/', dist), await buildCheckoutAssets())

// The embedded PostgreSQL server's supervisor, a shell script the service reads at start-up.
await copyFile(new URL('../src/db/embedded/supervisor.sh', import.meta.url), new URL('db/embedded/supervisor.sh', dist))
