/**
 * The consumer projects of the suite scenario (bench/suite/run.mjs, bench/suite/fixed-cost.mjs):
 * the built package copied into node_modules/sendbox as an install would put it, msw 2 or 3
 * linked beside it, the two suites and a vitest config, under node_modules/.cache/bench-suite/.
 */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const suiteDir = join(root, 'bench/suite')
const cacheDir = join(root, 'node_modules/.cache')

/** The configurations: a Node binary and an msw major. */
export const CONFIGS = {
  'node24-msw3': () => ({
    node: execFileSync(join(root, 'scripts/node-bin.sh'), ['24'], { encoding: 'utf8' }).trim(),
    msw: msw3(),
  }),
  'node20-msw2': () => {
    if (!process.version.startsWith('v20.')) return { skip: `this machine's node is ${process.version}, not 20` }
    return { node: process.execPath, msw: join(root, 'node_modules/msw') }
  },
}

/** msw 3, installed once beside the repository (the place and command of scripts/test-msw3.sh). */
function msw3() {
  const dir = join(cacheDir, 'msw3')
  if (!existsSync(join(dir, 'node_modules/msw/package.json'))) {
    mkdirSync(dir, { recursive: true })
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n')
    execFileSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'msw@^3'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    )
  }
  return join(dir, 'node_modules/msw')
}

/** A consumer project: the package as installed, msw linked, the two suites and a vitest config. */
export function consumer(configId, build, msw, workers = '') {
  const dir = join(cacheDir, 'bench-suite', `${configId}-${build.id}`)
  rmSync(dir, { recursive: true, force: true })
  const pkg = join(dir, 'node_modules/sendbox')
  mkdirSync(pkg, { recursive: true })
  for (const part of ['package.json', 'dist/lib', 'dist/web']) {
    if (!existsSync(join(build.dir, part))) throw new Error(`${build.id}: no ${part} in ${build.dir} (npm run build)`)
    cpSync(join(build.dir, part), join(pkg, part), { recursive: true })
  }
  symlinkSync(msw, join(dir, 'node_modules/msw'), 'dir')
  for (const part of ['app.ts', 'sendbox', 'handwritten'])
    cpSync(join(suiteDir, part), join(dir, part), { recursive: true })
  // The project's own package.json: without one, a resolver walking up would find this repository's (named sendbox).
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench-suite-consumer", "private": true, "type": "module" }\n')
  const maxWorkers = workers ? `, maxWorkers: ${Number(workers)}` : ''
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['**/*.test.ts'], exclude: ['node_modules/**']${maxWorkers} } }\n`,
  )
  return dir
}
