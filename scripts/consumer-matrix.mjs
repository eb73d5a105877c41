#!/usr/bin/env node
/**
 * The consumer matrix: the packed tarball installed into scratch projects exactly as a user
 * installs it (`npm install msw`, then `npm install <tarball>`, no flags), under Node 20, 22 and 24
 * with msw 2 or 3, vitest 4 or 5, TypeScript 5.9 or 7 and Jest 30. Each cell runs the consumer
 * suite (test/consumer/files), type-checks consumer files with `skipLibCheck: false` under every
 * module setting, and, where named, Jest's recipes and the browser example under setupWorker.
 *
 *   node scripts/consumer-matrix.mjs                 # every cell
 *   node scripts/consumer-matrix.mjs node24-msw3     # one cell
 *   SENDBOX_TARBALL=/path/sendbox-0.1.0.tgz node scripts/consumer-matrix.mjs
 *
 * Prints one line per check and a closing `N passed, N failed`; exits 1 when a check failed.
 * Needs the npm registry (the cells' dependencies) and, for the browser check, Chromium at
 * /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { execFile, execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const files = join(root, 'test/consumer/files')
const run = promisify(execFile)
const JEST = { jest: '^30', '@jest/globals': '^30', '@types/jest': '^30' }
const JEST_CLI = ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci']

/**
 * The cells: which Node runs them, what the project installs beside sendbox, what is checked.
 * `module: commonjs` is checked under TypeScript 7 only: under 5.9 it means node10 resolution, which
 * ignores package.json "exports", so msw 3's and @msw/data's own declarations do not resolve there
 * (a 5.9 CommonJS project uses `module: nodenext`, checked in every cell).
 * Jest with CommonJS test files is checked on Node 24 only: Jest takes its require(esm) path only
 * when `vm.SourceTextModule` exists (--experimental-vm-modules) and Node can require ES modules
 * synchronously in its VM (24.9+); on 22 `require('msw/node')` of msw 3 fails.
 */
export const CELLS = {
  'node20-msw2': {
    node: 20,
    deps: { msw: '^2.15.0', vitest: '^4', typescript: '~5.9', ...JEST },
    checks: ['vitest', 'types', 'jest'],
    modules: ['nodenext ESM', 'nodenext CJS', 'bundler'],
  },
  'node22-msw3': {
    node: 22,
    deps: { msw: '^3', vitest: '^4', typescript: '~5.9', ...JEST },
    checks: ['vitest', 'types', 'jest'],
    modules: ['nodenext ESM', 'nodenext CJS', 'bundler'],
  },
  // msw 1.x: npm refuses the tarball (the peer range); forced in, the first import says what to do.
  'node20-msw1': { node: 20, deps: { msw: '^1' }, checks: ['msw1', 'cli'], modules: [], peerConflict: true },
  'node24-msw3': {
    node: 24,
    deps: { msw: '^3', vitest: '^5', typescript: '^7', ...JEST, esbuild: '^0.28', 'playwright-core': '^1.65' },
    checks: ['vitest', 'types', 'jest', 'jest-cjs', 'browser', 'cli'],
    modules: ['nodenext ESM', 'nodenext CJS', 'bundler', 'commonjs'],
  },
}

/** Module settings the types are checked under, and the consumer file each one compiles. */
const TYPE_SETTINGS = [
  {
    name: 'nodenext ESM',
    dir: '.',
    options: { module: 'nodenext' },
    file: 'types-vitest.ts',
    alongside: ['sends.test.ts'],
  },
  { name: 'nodenext CJS', dir: 'cjs', options: { module: 'nodenext' }, file: 'types-cjs.ts' },
  {
    name: 'bundler',
    dir: '.',
    options: { module: 'esnext', moduleResolution: 'bundler' },
    file: 'types-vitest.ts',
    alongside: ['sends.test.ts'],
  },
  { name: 'commonjs', dir: 'cjs', options: { module: 'commonjs', esModuleInterop: true }, file: 'types-cjs.ts' },
]

function nodeBinary(major) {
  if (major === 20) return process.execPath
  return execFileSync(join(root, 'scripts/node-bin.sh'), [String(major)], { encoding: 'utf8' }).trim()
}

function packTarball(into) {
  if (process.env.SENDBOX_TARBALL) return process.env.SENDBOX_TARBALL
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', into], {
    cwd: root,
    encoding: 'utf8',
  })
  return join(into, JSON.parse(out)[0].filename)
}

/** Runs a command in the cell's project with the cell's Node first on PATH; resolves to { ok, output }. */
async function exec(cell, command, args, options = {}) {
  const env = {
    ...process.env,
    PATH: `${dirname(cell.nodeBin)}:${process.env.PATH}`,
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_update_notifier: 'false',
    CI: 'true',
    ...options.env,
  }
  for (const key of Object.keys(env)) if (key.startsWith('SENDBOX_') && key !== 'SENDBOX_NODE_CACHE') delete env[key]
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: options.cwd ?? cell.dir,
      env,
      timeout: options.timeout ?? 240_000,
      maxBuffer: 32 * 1024 * 1024,
    })
    return { ok: true, output: stdout + stderr, stdout }
  } catch (error) {
    return {
      ok: false,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}${error.stdout || error.stderr ? '' : String(error)}`,
    }
  }
}

/** A new project: msw first (what `npm install msw` picks), then the tarball, as a user does. */
async function install(cell, tarball) {
  writeFileSync(
    join(cell.dir, 'package.json'),
    JSON.stringify(
      {
        name: `consumer-${cell.name}`,
        private: true,
        type: 'module',
        jest: { transform: {}, testEnvironment: 'node' },
      },
      null,
      2,
    ),
  )
  const { msw, ...rest } = cell.deps
  const first = await exec(cell, 'npm', [
    'install',
    '--no-audit',
    '--loglevel=error',
    `msw@${msw}`,
    ...Object.entries(rest).map(([name, range]) => `${name}@${range}`),
  ])
  if (!first.ok) return first
  const plain = await exec(cell, 'npm', ['install', '--no-audit', '--loglevel=error', tarball])
  if (!cell.peerConflict) return plain
  if (plain.ok || !/ERESOLVE|peer msw/.test(plain.output))
    return {
      ok: false,
      output: `expected npm to refuse the tarball beside msw ${msw} (a peer conflict), got:\n${plain.output}`,
    }
  return exec(cell, 'npm', ['install', '--no-audit', '--loglevel=error', '--force', tarball])
}

function copyFiles(cell) {
  cpSync(files, cell.dir, { recursive: true })
  mkdirSync(join(cell.dir, 'cjs'), { recursive: true })
  writeFileSync(join(cell.dir, 'cjs/package.json'), JSON.stringify({ name: 'consumer-cjs', private: true }))
  cpSync(join(files, 'types-cjs.ts'), join(cell.dir, 'cjs/types-cjs.ts'))
}

const CHECKS = {
  async msw1(cell) {
    const script = "import('sendbox').then(() => console.log('imported'), (error) => console.log(error.stack))"
    const { output } = await exec(cell, cell.nodeBin, ['--input-type=module', '-e', script])
    const named = /^Error: sendbox needs msw \^2\.15\.0 \|\| \^3\.0\.0 .*npm install --save-dev msw@latest\n/.test(
      output,
    )
    return [
      [
        'msw 1.x: npm refuses the tarball, and forced in, the first import names the supported range',
        { ok: named, output },
      ],
    ]
  },
  /** The bundled CLI carries its own msw: it must run whatever msw the project has. */
  async cli(cell) {
    const result = await exec(cell, cell.nodeBin, ['node_modules/sendbox/dist/bin/sendbox.js', 'openapi'])
    let ok = false
    try {
      ok = result.ok && typeof JSON.parse(result.stdout).openapi === 'string'
    } catch {}
    return [['the sendbox command (its own msw) prints the OpenAPI document', { ...result, ok }]]
  },
  async vitest(cell) {
    return [
      ['vitest suite', await exec(cell, cell.nodeBin, ['node_modules/vitest/vitest.mjs', 'run', 'sends.test.ts'])],
    ]
  },
  async types(cell) {
    const results = []
    for (const setting of TYPE_SETTINGS.filter(({ name }) => cell.modules.includes(name))) {
      const dir = join(cell.dir, setting.dir)
      const fileList = [
        setting.file,
        ...(setting.alongside ?? []),
        ...(setting.file === 'types-vitest.ts' && cell.deps.jest ? ['types-jest.ts'] : []),
      ]
      const config = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          lib: ['es2023', 'dom'],
          types: cell.deps.jest ? ['node', 'jest'] : ['node'],
          ...setting.options,
        },
        files: fileList,
      }
      writeFileSync(join(dir, `tsconfig.${setting.name.replace(/\W+/g, '-')}.json`), JSON.stringify(config, null, 2))
      const tsc = join(cell.dir, 'node_modules/typescript/bin/tsc')
      results.push([
        `tsc ${setting.name} (${fileList.join(', ')})`,
        await exec(cell, cell.nodeBin, [tsc, '-p', `tsconfig.${setting.name.replace(/\W+/g, '-')}.json`], { cwd: dir }),
      ])
    }
    return results
  },
  async jest(cell) {
    return [
      ['jest ESM (--experimental-vm-modules)', await exec(cell, cell.nodeBin, [...JEST_CLI, 'sends.jest.test.mjs'])],
    ]
  },
  async 'jest-cjs'(cell) {
    return [
      [
        'jest CommonJS (--experimental-vm-modules)',
        await exec(cell, cell.nodeBin, [...JEST_CLI, 'sends.jest.test.cjs']),
      ],
    ]
  },
  async browser(cell) {
    const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
    if (!existsSync(chromium))
      return [['browser example under setupWorker', { ok: false, output: `no Chromium at ${chromium}` }]]
    cpSync(join(root, 'examples/browser'), join(cell.dir, 'browser'), {
      recursive: true,
      filter: (path) => !/public\/(assets|mockServiceWorker\.js)/.test(path),
    })
    return [
      [
        'browser example under setupWorker (Chromium)',
        await exec(cell, cell.nodeBin, ['browser-check.mjs'], { env: { CHROMIUM_PATH: chromium }, timeout: 120_000 }),
      ],
    ]
  },
}

/** Installs one cell (a new project, msw, then the tarball); returns the cell, its first row and when it started. */
async function installCell(name, tarball, work) {
  const cell = { name, ...CELLS[name], dir: join(work, name) }
  mkdirSync(cell.dir, { recursive: true })
  cell.nodeBin = nodeBinary(cell.node)
  const version = (await exec(cell, cell.nodeBin, ['--version'])).stdout.trim()
  const started = Date.now()
  const installed = await install(cell, tarball)
  const rows = [[`install (npm install msw@${cell.deps.msw}, then the tarball) on Node ${version}`, installed]]
  if (!installed.ok) return { cell, rows, started }
  copyFiles(cell)
  const versions =
    JSON.parse((await exec(cell, 'npm', ['ls', '--json', '--depth=0'])).stdout || '{}').dependencies ?? {}
  rows[0][0] += `: ${Object.entries(versions)
    .map(([dep, info]) => `${dep}@${info.version}`)
    .join(' ')}`
  return { cell, rows, started }
}

/** Runs an installed cell's checks; returns its [label, result] rows. */
async function checkCell({ cell, rows, started }) {
  if (!rows[0][1].ok) return rows
  for (const check of cell.checks) rows.push(...(await CHECKS[check](cell)))
  console.log(`     ${cell.name}: ${((Date.now() - started) / 1000).toFixed(0)} s`)
  return rows
}

/** An install that cannot reject (a failure is its row), so it may wait while another cell runs. */
function installing(name, tarball, work) {
  return installCell(name, tarball, work).catch((error) => ({
    cell: { name },
    rows: [[`install of ${name}`, { ok: false, output: String(error?.stack ?? error) }]],
    started: Date.now(),
  }))
}

async function main() {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(CELLS)
  const unknown = names.filter((name) => !(name in CELLS))
  if (unknown.length > 0) throw new Error(`unknown cell ${unknown.join(', ')}; cells: ${Object.keys(CELLS).join(', ')}`)
  const work = mkdtempSync(join(tmpdir(), 'sendbox-matrix-'))
  writeFileSync(join(work, 'package.json'), '{}') // keeps npm from walking up
  let passed = 0
  let failed = 0
  try {
    const tarball = packTarball(work)
    // Two cores: cells test one after another (each test uses both), and the next cell installs
    // while one tests (an install mostly waits on the registry and the disk).
    let next = installing(names[0], tarball, work)
    for (let i = 0; i < names.length; i++) {
      const installed = await next
      const name = names[i]
      if (i + 1 < names.length) next = installing(names[i + 1], tarball, work)
      for (const [label, result] of await checkCell(installed)) {
        console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${name}: ${label}`)
        if (!result.ok)
          console.log(
            result.output
              .split('\n')
              .slice(-40)
              .map((line) => `     ${line}`)
              .join('\n'),
          )
        if (result.ok) passed++
        else failed++
      }
    }
  } finally {
    if (!process.env.SENDBOX_KEEP_MATRIX) rmSync(work, { recursive: true, force: true })
    else console.log(`kept ${work}`)
  }
  console.log(`matrix: ${passed} passed, ${failed} failed`)
  process.exitCode = failed > 0 ? 1 : 0
}

await main()
