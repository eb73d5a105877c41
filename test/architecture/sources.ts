import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Every shipped source file (src, bin, fixtures; tests and declaration files excluded), as absolute paths.
 * A name starting with a dot is never shipped (tsc's `include` globs skip it), and a test may write a
 * scratch file so named beside the sources while another test walks them: it is skipped, not read.
 */
export function shippedSources(): string[] {
  const found: string[] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name)) found.push(path)
    }
  }
  for (const dir of ['src', 'bin', 'fixtures']) walk(join(ROOT, dir))
  return found
}
