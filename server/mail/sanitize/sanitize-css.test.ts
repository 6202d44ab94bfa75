import { describe, expect, it } from 'vitest';
import { decodeCssEscapes, sanitizeDeclarations, sanitizeStylesheet, type CssPolicy } from './sanitize-css';

function policy(allowRemoteImages = false): CssPolicy & { remote: number } {
  const result = {
    allowRemoteImages,
    remote: 0,
    onRemote: () => {
      result.remote += 1;
    },
  };
  return result;
}

describe('sanitizeDeclarations', () => {
  it.each([
    ['color:red;padding:0 10px', 'color:red;padding:0 10px'],
    ['  color:red;;padding:0 10px; ', 'color:red;;padding:0 10px;'],
    ['font-family: "Helvetica Neue", Arial; mso-line-height-rule: exactly', 'font-family: "Helvetica Neue", Arial; mso-line-height-rule: exactly'],
    ['width: calc(100% - 20px); background: linear-gradient(#fff, rgba(0,0,0,.5))', 'width: calc(100% - 20px); background: linear-gradient(#fff, rgba(0,0,0,.5))'],
    ['font-family: \\5FAE\\8F6F\\96C5\\9ED1', 'font-family: \\5FAE\\8F6F\\96C5\\9ED1'],
    ['color: red !important;', 'color: red !important;'],
    ['color:red; x', 'color: red'],
    [';;', ''],
    ['content: ";"; color: blue', 'color: blue'],
    ['color: gre/**/en', 'color: green'],
    ['width: expression(alert(1))', ''],
    ['width: expr/**/ession(alert(1))', ''],
    ['width: \\65 xpression(alert(1))', ''],
    ['behavior: url(x.htc); color: red', 'color: red'],
    ['-moz-binding: url(https://x.example/b.xml)', ''],
    ['\\62 ehavior: url(x.htc)', ''],
    ['background: url(javascript:void0)', 'background: none'],
    ['background: url(javascript:alert(1))', ''],
    ['background: url(data:image/png;base64,iVBORw0KGgo=)', ''],
    ['background: #fff url("cid:bg") no-repeat', 'background: #fff none no-repeat'],
    ['background-image: image-set("https://t.example/a.png" 1x)', ''],
    ['background: -webkit-cross-fade(url(a.png), url(b.png), 50%)', ''],
    ['color: red\\3b background: url(https://t.example/x.png)', ''],
    ['filter: progid:DXImageTransform.Microsoft.gradient(startColorstr=#000)', ''],
    ['color: red; } body { background: red', 'color: red'],
    ['color: red; x: </style><script>', 'color: red'],
    ['color', ''],
    [': red', ''],
    ['--brand: #f00; color: var(--brand)', '--brand: #f00; color: var(--brand)'],
  ])('%j → %j', (input, output) => {
    expect(sanitizeDeclarations(input, policy())).toBe(output);
  });

  it.each([
    ['background-image: url(https://t.example/a.png)', 'background-image: none', 'background-image: url("https://t.example/a.png")'],
    ["background: url('//t.example/a b.png') center", 'background: none center', 'background: url("https://t.example/a%20b.png") center'],
    ['background: url(https://t.example/(a).png)', '', ''],
    ["background: url(\"https://t.example/it's.png\")", 'background: none', 'background: url("https://t.example/it%27s.png")'],
    ['list-style-image: url(https://t.example/a.png)', 'list-style-image: none', 'list-style-image: none'],
    ['border-image: url(https://t.example/a.png) 30', 'border-image: none 30', 'border-image: none 30'],
  ])('remote %j: blocked %j, allowed %j', (input, blocked, allowed) => {
    const blocking = policy(false);
    expect(sanitizeDeclarations(input, blocking)).toBe(blocked);
    expect(sanitizeDeclarations(input, policy(true))).toBe(allowed);
    if (blocked !== '') expect(blocking.remote).toBe(1);
  });
});

describe('sanitizeStylesheet', () => {
  it.each([
    ['p{color:red} .a > b{margin:0}', 'p{color:red}\n.a > b{margin:0}'],
    ['p{color:red;x:expression(1)}', 'p{color: red}'],
    ['<!-- p{color:red} -->', 'p{color:red}'],
    ['@import url(https://t.example/x.css); p{color:red}', 'p{color:red}'],
    ['@import "x.css"', ''],
    ['@charset "utf-8"; p{color:red}', 'p{color:red}'],
    ['@font-face{font-family:x;src:url(https://t.example/f.woff)} p{font-family:x}', 'p{font-family:x}'],
    ['@media screen and (max-width:600px){.c{width:100%!important}}', '@media screen and (max-width:600px){\n.c{width:100%!important}\n}'],
    ['@supports (display:grid){p{display:grid}}', '@supports (display:grid){\np{display:grid}\n}'],
    ['@-moz-document url-prefix(){p{color:red}}', ''],
    ['@keyframes k{from{opacity:0}}', ''],
    ['@media x{@media y{p{color:red}}}', '@media x{\n@media y{\np{color:red}\n}\n}'],
    ['@media x{@media y{@media z{@media w{@media v{p{color:red}}}}}}', ''],
    ['p{width:expression(1)}', ''],
    ['p{color:red', 'p{color:red}'],
    ['} p{color:red}', ''],
    ['p<img>{color:red}', ''],
    ['a[href^="https://bank"]{color:red}', 'a[href^="https://bank"]{color:red}'],
    ['.md\\:flex{display:flex}', '.md\\:flex{display:flex}'],
    ['p{color:red}/* unterminated', 'p{color:red}'],
    ['p{font-family:"a}b";color:red}', 'p{color: red}'],
  ])('%j → %j', (input, output) => {
    expect(sanitizeStylesheet(input, policy())).toBe(output);
  });

  it('never lets "<" through', () => {
    for (const css of ['p{content:"</style><script>"}', 'p{color:red}</style>', '@media <x>{p{color:red}}']) {
      expect(sanitizeStylesheet(css, policy())).not.toContain('<');
    }
  });

  it('is linear on a long run of brackets and quotes', () => {
    const css = `${'('.repeat(100_000)}${'"'.repeat(100_000)}${'{'.repeat(100_000)}`;
    expect(sanitizeStylesheet(css, policy())).toBe('');
    expect(sanitizeDeclarations(css, policy())).toBe('');
  });
});

describe('decodeCssEscapes', () => {
  it.each([
    ['\\75 rl', 'url'],
    ['\\000075rl', 'url'],
    ['\\3b', ';'],
    ['\\"', '"'],
    ['\\0', '\ufffd'],
    ['\\110000', '\ufffd'],
    ['a\\\nb', 'ab'],
  ])('%j → %j', (input, output) => {
    expect(decodeCssEscapes(input)).toBe(output);
  });
});
