/** @jsxImportSource preact */
/** The Links tab of an email: each link as stored (serialized), its warnings as badges, a copy button. */
import { linkFindings } from './link-warnings.js'
import { CopyButton } from './widgets.js'

/** One link: the address exactly as copied and opened, and why it deserves a second look. */
function LinkItem({ link }: { link: string }) {
  const warnings = linkFindings(link)
  return (
    <li class={warnings.length > 0 ? 'suspicious' : undefined}>
      <a href={link} target="_blank" rel="noopener noreferrer" dir="ltr">
        <bdi>{link}</bdi>
      </a>
      {warnings.map((warning) => (
        <span key={warning.kind} class="link-warning" data-kind={warning.kind} title={warning.explanation}>
          ⚠ {warning.label}
          <span class="visually-hidden">: {warning.explanation}</span>
        </span>
      ))}
      <CopyButton text={link} label={`Copy ${link}`} />
    </li>
  )
}

/** The numbered links of a message, or a sentence when there are none. */
export function LinksList({ links }: { links: readonly string[] }) {
  if (links.length === 0) return <p>No links in this email.</p>
  return (
    <ol class="links">
      {links.map((link) => (
        <LinkItem key={link} link={link} />
      ))}
    </ol>
  )
}
