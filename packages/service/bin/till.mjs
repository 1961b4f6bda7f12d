#!/usr/bin/env node
// The `till` command. Till's sources are TypeScript run through tsx, so no build step stands between a
// clone and a running service.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
