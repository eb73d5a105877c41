/** The bad email: flex, an alt-less image, a javascript: link, an http: link and a link whose text names another host. */
export const BAD_EMAIL = [
  '<!doctype html><html lang="en"><body>',
  '<div style="display:flex">',
  '<img src="https://cdn.example.com/logo.png">',
  '<a href="javascript:alert(1)">Open</a>',
  '<a href="http://example.com/offer">Offer</a>',
  '<a href="https://evil.example.net/login">https://bank.example.com</a>',
  '</div></body></html>',
].join('\n')

/** An email with nothing to say about at error or warning level. */
export const CLEAN_EMAIL =
  '<!doctype html><html lang="en"><body><p>Hi Ana, <a href="https://app.example.com/verify?t=1">verify your address</a>.</p></body></html>'
