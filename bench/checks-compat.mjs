#!/usr/bin/env node
/**
 * Time of the email compatibility check (issue 35) on a typical 30 KB email and a 1 MiB one of
 * ~56,000 elements (bench/checks-emails.mjs), on the built sources (`npm run build` first):
 *   node bench/checks-compat.mjs
 * or on the sources: `node --import tsx bench/checks-compat.mjs --src`.
 * With `--candidates DIR`, also the libraries compared in docs/decisions/email-compatibility.md,
 * installed beforehand in DIR (npm install --prefix DIR caniemail @jsx-email/doiuse-email @emailens/engine).
 */
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { hugeEmail, typicalEmail } from './checks-emails.mjs'

const small = typicalEmail()
const big = hugeEmail()
const elements = (html) => (html.match(/<[a-z]/gi) ?? []).length
console.log(
  `typical: ${(small.length / 1024).toFixed(1)} KB, ${elements(small)} elements; huge: ${(big.length / 1048576).toFixed(2)} MiB, ${elements(big)} elements`,
)

function time(run, html, rounds) {
  const start = performance.now()
  let result
  for (let i = 0; i < rounds; i++) result = run(html)
  return { ms: (performance.now() - start) / rounds, result }
}

async function measure(name, load) {
  const loadStart = performance.now()
  const run = await load()
  const first = time(run, small, 1)
  const loadMs = performance.now() - loadStart
  const typical = time(run, small, 10)
  const huge = time(run, big, 3)
  console.log(
    `${name}: load + first check ${loadMs.toFixed(0)} ms; 30 KB ${typical.ms.toFixed(1)} ms; 1 MiB ${huge.ms.toFixed(0)} ms`,
  )
  return first.result
}

const ours = await measure('sendbox (caniemail data, own scan)', async () => {
  const module = process.argv.includes('--src')
    ? '../src/domain/checks/email/compatibility.ts'
    : '../dist/src/domain/checks/email/compatibility.js'
  const { compatibilityChecks, DEFAULT_EMAIL_CLIENTS } = await import(module)
  return (html) => compatibilityChecks(html, DEFAULT_EMAIL_CLIENTS)
})
console.log(
  `  ${ours.checks.length} checks on the typical email (${ours.checks.filter((c) => c.severity === 'warning').length} warnings)`,
)

const at = process.argv.indexOf('--candidates')
if (at > 0) {
  const dir = resolve(process.argv[at + 1])
  const require = createRequire(join(dir, 'package.json'))
  const load = (name) => import(pathToFileURL(require.resolve(name)).href)
  await measure('caniemail', async () => {
    const { caniemail } = await load('caniemail')
    return (html) =>
      caniemail({
        html,
        clients: ['gmail.*', 'outlook.*', 'apple-mail.*', 'yahoo.*', 'samsung-email.*', 'thunderbird.macos'],
      })
  })
  await measure('@jsx-email/doiuse-email', async () => {
    const { doIUseEmail } = await load('@jsx-email/doiuse-email')
    return (html) =>
      doIUseEmail(html, {
        emailClients: ['gmail.*', 'outlook.*', 'apple-mail.*', 'yahoo.*', 'samsung-email.*', 'thunderbird.macos'],
      })
  })
  await measure('@emailens/engine', async () => {
    const { analyzeEmail } = await load('@emailens/engine')
    return (html) => analyzeEmail(html)
  })
}
