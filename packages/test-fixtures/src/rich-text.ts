/**
 * A hostile rich-text body (a script, an event handler, a javascript: link, a style, a frame, an image that loads from
 * http with a handler) and the clean markup both sides make of it: the server stores HOSTILE_CLEAN when it is saved
 * (apps/server/test/notice-sanitize.test.ts), the web app shows the same (apps/web/src/lib/rich-text.test.tsx).
 */
export const HOSTILE =
  '<h1 onclick="steal()">News</h1><p style="color:red" onmouseover="x()">Read <a href="javascript:alert(1)">this</a>' +
  ' and <a href="/finance" target="_blank" onclick="x()">that</a> &amp; <b>more</b></p><script>alert(1)</script>' +
  '<iframe src="https://evil.example"></iframe><img src="http://evil.example/a.png" onerror="alert(1)">' +
  '<img src="/uploads/a.png" alt="A" onload="x()"><style>p{}</style><span class="s">end</span>'

export const HOSTILE_CLEAN =
  '<h2>News</h2><p>Read this and <a href="/finance">that</a> &amp; <strong>more</strong></p>' +
  '<img src="/uploads/a.png" alt="A" />end'
