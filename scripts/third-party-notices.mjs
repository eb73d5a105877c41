/**
 * dist/THIRD-PARTY-NOTICES.txt: the license of every package whose code a build bundled (esbuild's
 * metafile inputs under node_modules), as their licenses ask of a copy. Packages left in node_modules
 * (msw, faker, …) ship with their own.
 *
 *   writeThirdPartyNotices(root, inputs) // inputs: paths relative to root, as esbuild's metafile has them
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The package folder (relative to root) of a bundled input, or undefined for the project's own files. */
function packageDirOf(input) {
  const at = input.lastIndexOf('node_modules/')
  if (at === -1) return undefined
  const rest = input.slice(at + 'node_modules/'.length).split('/')
  return input.slice(0, at + 'node_modules/'.length) + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/')
}

export function writeThirdPartyNotices(root, inputs) {
  const dirs = [...new Set([...inputs].map(packageDirOf).filter((dir) => dir !== undefined))]
  const packages = dirs
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
      const licenseFile = readdirSync(join(root, dir)).find((name) => /^licen[cs]e(\.md|\.txt)?$/i.test(name))
      return {
        name: manifest.name,
        version: manifest.version,
        license: typeof manifest.license === 'string' ? manifest.license : 'see below',
        text: licenseFile ? readFileSync(join(root, dir, licenseFile), 'utf8').trim() : undefined,
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name))
  const sections = packages.map(
    (p) =>
      `${p.name}@${p.version} (${p.license})\n${'-'.repeat(p.name.length + p.version.length + 1)}\n\n${
        p.text ?? `No license file in the package; its package.json names ${p.license}.`
      }\n`,
  )
  writeFileSync(
    join(root, 'dist/THIRD-PARTY-NOTICES.txt'),
    `sendbox's build bundles code of the packages below into dist/ (scripts/bundle.mjs, scripts/build-web.mjs).\nTheir licenses and notices follow.\n\n${sections.join('\n')}`,
  )
}
