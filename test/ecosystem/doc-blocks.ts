import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The fenced code blocks of the README and of every page in docs/, with the comment line above
 * each, for the tests that run them (issue 33 item 2: every block of the docs runs, or says why
 * it cannot). The comment above a block, when there is one:
 * - `<!-- snippet: KIND NAME… -->`: how to run a TypeScript/JavaScript block (doc-snippets.test.ts)
 *   or a shell block (`sh` with flags, doc-shell.test.ts);
 * - `<!-- not run: REASON -->`: the block is not run here, and REASON says why (and what checks
 *   the same thing instead). Every block in another language than ts, js, mjs, sh or json needs
 *   one; untagged blocks (and `text`, `diff`) are program output or pictures and are not run.
 */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The pages whose blocks run: README.md and docs/*.md (decision pages have no runnable block). */
export const DOC_PAGES: string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
]

/** Every markdown file whose relative links must resolve: the pages, and docs/decisions/*.md. */
export const LINKED_PAGES: string[] = [
  ...DOC_PAGES,
  ...readdirSync(join(ROOT, 'docs/decisions'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/decisions/${name}`),
]

/** Languages the tests run; other tagged blocks need `<!-- not run: … -->`. */
export const RUN_LANGUAGES = ['ts', 'js', 'mjs', 'sh', 'json'] as const
/** Not code: output, diagrams, diffs. */
export const OUTPUT_LANGUAGES = ['', 'text', 'diff']

export interface DocBlock {
  page: string
  /** 1-based line of the opening fence. */
  line: number
  lang: string
  /** The block's text, its fence's indentation removed. */
  code: string
  /** From `<!-- snippet: KIND ARGS -->`. */
  kind?: string
  args: string[]
  /** From `<!-- not run: REASON -->`. */
  notRun?: string
}

/** `docs/api.md:42`, for messages. */
export const where = (block: DocBlock): string => `${block.page}:${block.line}`

export function blocksOf(page: string): DocBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n')
  const found: DocBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```([\w-]*)\s*$/.exec(lines[i])
    if (!fence) continue
    const end = lines.findIndex((line, j) => j > i && line.trim() === '```')
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block that is never closed`)
    const code = lines
      .slice(i + 1, end)
      .map((line) => line.slice(fence[1].length))
      .join('\n')
    const above = (lines[i - 1] ?? '').trim()
    const snippet = /^<!-- snippet: ([\w-]+)((?: [\w.-]+)*) -->$/.exec(above)
    const notRun = /^<!-- not run: (.*?) -->$/.exec(above)
    found.push({
      page,
      line: i + 1,
      lang: fence[2],
      code,
      kind: snippet?.[1],
      args: snippet?.[2].trim().split(' ').filter(Boolean) ?? [],
      notRun: notRun?.[1].trim(),
    })
    i = end
  }
  return found
}

export const allBlocks = (): DocBlock[] => DOC_PAGES.flatMap(blocksOf)

/** `…` in an expected-output comment stands for anything. */
export function pattern(expected: string): RegExp {
  return new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')}$`,
  )
}
