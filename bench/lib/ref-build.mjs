/**
 * A built copy of another commit for side-by-side runs: `git archive REF` extracted under
 * `.bench-ref/<sha>/` inside this checkout (its imports resolve to this checkout's node_modules,
 * one level up) and built with its own `npm run build`. Built once per commit, then reused.
 * No `git worktree`: the copy is plain files, ignored by git.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/** The commit's full hash, or an error naming what git said. */
export function resolveRef(root, ref) {
  return execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' }).trim()
}

/** The folder of a built copy of `ref` (built now if missing); logs what it does on stderr. */
export function builtRef(root, ref, log = (line) => process.stderr.write(`${line}\n`)) {
  const sha = resolveRef(root, ref)
  const dir = join(root, '.bench-ref', sha.slice(0, 12))
  if (existsSync(join(dir, 'dist/bin/sendbox.js')) && existsSync(join(dir, '.built'))) return { sha, dir }
  log(`building ${ref} (${sha.slice(0, 12)}) in ${dir}…`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const archive = spawnSync('sh', ['-c', `git archive ${sha} | tar -x -C "${dir}"`], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  if (archive.status !== 0) throw new Error(`git archive ${ref} failed`)
  const built = spawnSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`npm run build of ${ref} failed (see above)`)
  execFileSync('touch', [join(dir, '.built')])
  return { sha, dir }
}
