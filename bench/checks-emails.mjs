// The emails the compatibility benchmark (bench/checks-compat.mjs) checks: generated, no fixture files.
// Generates a typical ~30 KB transactional email and a ~1 MiB one of ~50,000 elements.
export function typicalEmail(targetBytes = 30 * 1024) {
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Your order</title><style>
body { margin:0; padding:0; background-color:#f4f4f4; font-family: Helvetica, Arial, sans-serif; }
.wrapper { width:100%; max-width:600px; margin:0 auto; }
.btn { display:inline-block; padding:12px 24px; border-radius:6px; background:#1a73e8; color:#fff; text-decoration:none; }
.row { display:flex; gap:8px; justify-content:space-between; }
@media (max-width: 600px) { .wrapper { width:100% !important; } .col { display:block !important; } }
@media (prefers-color-scheme: dark) { body { background-color:#111 !important; color:#eee !important; } }
h1:hover { color: red; }
.grid { display:grid; grid-template-columns: 1fr 1fr; }
</style></head><body>`
  const block = (
    i,
  ) => `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;background-color:#ffffff;">
<tr><td class="col" style="padding:16px 24px;font-size:16px;line-height:24px;color:#333333;">
<div class="row" style="display:flex;align-items:center;"><img src="https://cdn.example.com/p/${i}.png" width="80" height="80" style="border-radius:4px;object-fit:cover;" alt="Product ${i}">
<p style="margin:0;font-weight:bold;text-transform:uppercase;letter-spacing:1px;">Item ${i}: something nice</p>
<span style="background-image:linear-gradient(#fff,#eee);box-shadow:0 1px 2px rgba(0,0,0,.2);">$${i}.00</span></div>
<a class="btn" href="https://shop.example.com/item/${i}?utm_source=email" style="display:inline-block;">View item</a>
</td></tr></table>\n`
  let body = ''
  let i = 0
  while (head.length + body.length < targetBytes - 200) body += block(i++)
  return (
    head +
    body +
    `<footer><p style="font-size:12px;color:#999;">Unsubscribe <a href="https://example.com/u">here</a></p></footer></body></html>`
  )
}
export function hugeEmail() {
  // 1 MiB, ~50,000 elements: the typical head, then many small elements.
  const head = typicalEmail(2000).replace(/<\/body><\/html>$/, '')
  let body = ''
  let n = 0
  const unit = (i) => `<tr><td style="padding:2px;color:#333">x${i}</td><td><b>${i}</b></td></tr>`
  const rows = []
  while (head.length + body.length < 1024 * 1024 - 1000) {
    const chunk = []
    for (let k = 0; k < 100; k++) chunk.push(unit(n++))
    body += `<table role="presentation">${chunk.join('')}</table>\n`
  }
  return head + body + '</body></html>'
}
