import { openDatabase } from '../../src/db/open.ts'
import { migrate } from '../../src/db/migrate.ts'
import { seedPayments } from './seed.ts'
const db = await openDatabase({ dataDir: '/tmp/exp/data' }, console.log)
await migrate(db)
if (process.argv[2] === 'seed') {
  const t = performance.now()
  await seedPayments(db, { payments: 1_000_000, merchants: 200, buyers: 300_000, now: new Date('2026-11-24T12:00:00Z') })
  console.log('seeded in', Math.round(performance.now() - t), 'ms')
  await db.exec('VACUUM ANALYZE payments')
  console.log('analyzed in', Math.round(performance.now() - t), 'ms')
}
console.log('READY')
setInterval(() => {}, 1e9)
