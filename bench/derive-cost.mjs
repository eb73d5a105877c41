/**
 * What deriving an email's text, links and codes costs (renderEmail + findCodes on the built
 * code), for ordinary emails of growing size and for hostile shapes at a given size: the figures
 * behind LAZY_DERIVE_LIMIT (docs/decisions/channels-and-derived-fields.md).
 *
 *   node bench/derive-cost.mjs [hostile size in KiB, default 4]
 */
import { findCodes, loadHtmlTools, renderEmail } from '../dist/src/domain/extract.js'

await loadHtmlTools()
const derive = (html) => findCodes(`Subject\n${renderEmail(html).text}`)
const timed = (html, n) => {
  for (let i = 0; i < Math.min(n, 20); i++) derive(html)
  const started = performance.now()
  for (let i = 0; i < n; i++) derive(html)
  return (performance.now() - started) / n
}

const block = (i) =>
  `<tr><td style="padding:8px;font-family:Arial,sans-serif;color:#333"><h2>Section ${i}</h2><p>Hello Ana, thanks for your order #10${i}. Your code is ${100000 + i}. <a href="https://shop.test/orders/${i}?utm_source=email&amp;utm_medium=x">View order</a></p><img src="https://cdn.shop.test/img/${i}.png" alt="item ${i}" width="120"></td></tr>`
for (const kib of [0.1, 1, 4, 16, 64]) {
  let html = '<!doctype html><html><body><table>'
  for (let i = 0; html.length < kib * 1024; i++) html += block(i)
  html += '</table></body></html>'
  console.log(`ordinary ${(html.length / 1024).toFixed(1)} KiB: ${timed(html, 200).toFixed(2)} ms`)
}

const size = Number(process.argv[2] ?? 4) * 1024
const fill = (unit) => unit.repeat(Math.floor(size / unit.length))
const hostile = {
  tags: fill('<b>x</b>'),
  cells: `<table>${fill('<tr><td>1</td><td>2</td></tr>')}</table>`,
  nested: fill('<div>'),
  links: fill('<a href="https://a.test/x">https://a.test/y</a>'),
  codes: fill('code 1234 '),
  nbsp: fill('&nbsp;'),
  lists: fill('<ul><li>a</li></ul>'),
  images: fill('<img src="https://a.test/i.png" alt="a">'),
}
for (const [name, html] of Object.entries(hostile))
  console.log(`hostile ${name} ${(html.length / 1024).toFixed(1)} KiB: ${timed(html, 20).toFixed(2)} ms`)
