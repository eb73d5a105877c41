import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './sources.js'

/**
 * A comment or a doc that names a path of the repository names one that exists (issue 34, item 6):
 * a moved file leaves no stale pointer behind. A mention counts as a path when it starts with one
 * of the top folders below; `x.js` may name its `x.ts`/`x.tsx` source. Not checked: a line that
 * records a rename (it holds `→`), a name cut at a hyphen (a prefix such as `types-`), generated
 * folders (`bench/tmp`), vendored files (their paths are another project's).
 */
const TOP = ['src', 'test', 'docs', 'scripts', 'bench', 'fixtures', 'examples', 'bin']
const MENTION = new RegExp(String.raw`(?<![\w./-])((?:${TOP.join('|')})/[\w./-]*[\w-])`, 'g')
const TEXT_FILE = /\.(ts|tsx|mts|mjs|js|sh|md|json|css)$/
const GENERATED = ['bench/tmp', 'bench/results/tmp']
/** Files copied from elsewhere as they are (their paths name that project's tree). */
const VENDORED = ['test/fixtures/mcp-registry/']

function trackedTextFiles(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', ...TOP, '.ci', 'Dockerfile', 'README.md'],
    { cwd: ROOT, encoding: 'utf8' },
  )
  return listed
    .split('\n')
    .filter(
      (file) =>
        file !== '' &&
        !VENDORED.some((dir) => file.startsWith(dir)) &&
        (TEXT_FILE.test(file) || file.startsWith('.ci/') || file === 'Dockerfile') &&
        existsSync(join(ROOT, file)),
    )
}

function exists(path: string): boolean {
  if (existsSync(join(ROOT, path))) return true
  return /\.js$/.test(path) && ['.ts', '.tsx'].some((ext) => existsSync(join(ROOT, path.replace(/\.js$/, ext))))
}

function missingMentions(file: string): string[] {
  const missing: string[] = []
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.includes('→')) return
      for (const [, mention] of line.matchAll(MENTION)) {
        const path = mention.replace(/\.$/, '')
        if (path.endsWith('-') || GENERATED.some((dir) => path === dir || path.startsWith(`${dir}/`)) || exists(path))
          continue
        missing.push(`${file}:${index + 1} names ${path}, which does not exist`)
      }
    })
  return missing
}

describe('paths named in comments and docs', () => {
  it('every one exists (fix the mention, or the file it points to moved)', () => {
    expect(trackedTextFiles().flatMap(missingMentions)).toEqual([])
  })
})
