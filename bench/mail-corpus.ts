/**
 * Deterministic newsletter-like HTML mails for the sanitiser bench: what marketing tools send
 * (nested layout tables, inline styles on nearly every cell, a `<style>` block with media queries,
 * MSO conditional comments, remote images and a tracking pixel, inline `cid:` images, styled button
 * links, a long footer). The same seed gives the same mails on every machine.
 */
import { seededRandom } from '../server/testing/seeded-random';

const words = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua ' +
  'offre exclusive découvrez nos nouveautés livraison gratuite membres semaine prochaine réduction collection printemps été'
).split(' ');

const head = (title: string) => `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1.0" />
<title>${title}</title>
<!--[if gte mso 9]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch></o:OfficeDocumentSettings></xml><![endif]-->
<style type="text/css">
<!--
body { margin: 0 !important; padding: 0 !important; -webkit-text-size-adjust: 100% !important; -ms-text-size-adjust: 100% !important; }
table, td { border-collapse: collapse; mso-table-lspace: 0pt; mso-table-rspace: 0pt; }
img { border: 0; height: auto; line-height: 100%; outline: none; text-decoration: none; -ms-interpolation-mode: bicubic; }
a[x-apple-data-detectors] { color: inherit !important; text-decoration: none !important; }
.button a:hover { background-color: #0b5ed7 !important; }
@import url(https://fonts.example.com/css?family=Open+Sans:400,700);
@media only screen and (max-width: 620px) {
  .container { width: 100% !important; max-width: 100% !important; }
  .column { display: block !important; width: 100% !important; }
  .hide-mobile { display: none !important; max-height: 0 !important; overflow: hidden !important; }
  .hero { background-image: url(https://cdn.example.com/hero-mobile.jpg) !important; }
}
-->
</style>
</head>`;

/** One mail of roughly `targetBytes` (the article count grows until it is reached). */
export function newsletter(index: number, targetBytes: number): string {
  const random = seededRandom(0x5a17 + index * 7919);
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const sentence = (count: number) => Array.from({ length: count }, () => pick(words)).join(' ');
  const color = () => `#${Math.floor(random() * 0xffffff).toString(16).padStart(6, '0')}`;
  const link = (text: string) =>
    `<a href="https://click.example.com/t/${index}/${Math.floor(random() * 1e9)}?utm_source=newsletter&amp;utm_medium=email" style="color: ${color()}; text-decoration: underline; font-weight: bold;" target="_blank">${text}</a>`;
  const cell = (content: string, width: number) =>
    `<td class="column" width="${width}" valign="top" style="padding: 10px 15px 10px 15px; font-family: 'Open Sans', Arial, Helvetica, sans-serif; font-size: 15px; line-height: 22px; color: #333333; mso-line-height-rule: exactly;">${content}</td>`;
  const article = (n: number) => {
    const image = random() < 0.8 ? `https://cdn.example.com/img/${index}/${n}.jpg` : `cid:article-${index}-${n}@example.com`;
    return `<tr><td style="padding: 0 0 20px 0;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color: ${color()}; border-radius: 4px;">
<tr>${cell(`<img src="${image}" width="260" alt="${sentence(3)}" style="display: block; width: 100%; max-width: 260px; height: auto;" />`, 280)}
${cell(`<h2 style="margin: 0 0 10px 0; font-size: 20px; line-height: 26px; color: #111111;">${sentence(6)}</h2><p style="margin: 0 0 12px 0;">${sentence(40 + Math.floor(random() * 40))} ${link(sentence(2))}.</p>
<table role="presentation" cellpadding="0" cellspacing="0" border="0" class="button"><tr><td style="border-radius: 4px; background-color: #0d6efd;" bgcolor="#0d6efd">
<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="https://click.example.com/b/${n}" style="height:40px;v-text-anchor:middle;width:200px;" arcsize="10%" stroke="f" fillcolor="#0d6efd"><w:anchorlock/><center><![endif]-->
<a href="https://click.example.com/b/${index}/${n}" style="display: inline-block; padding: 10px 24px; font-family: Arial, sans-serif; font-size: 16px; color: #ffffff; text-decoration: none; border-radius: 4px;">${sentence(2)}</a>
<!--[if mso]></center></v:roundrect><![endif]--></td></tr></table>`, 300)}</tr>
</table></td></tr>`;
  };
  const footer = `<tr><td align="center" style="padding: 30px 20px; font-family: Arial, sans-serif; font-size: 12px; line-height: 18px; color: #888888; background: #f4f4f4 url(https://cdn.example.com/footer-bg.png) repeat-x;">
<p style="margin: 0 0 8px 0;">${sentence(30)}</p><p style="margin: 0;">${link('Unsubscribe')} · ${link('Preferences')} · ${link('View online')}</p>
<img src="https://track.example.com/open/${index}.gif" width="1" height="1" alt="" style="display:block;border:0;" /></td></tr>`;

  const parts: string[] = [
    head(sentence(5)),
    `<body style="margin: 0; padding: 0; background-color: #eeeeee;" bgcolor="#eeeeee">
<div style="display: none; max-height: 0; overflow: hidden; mso-hide: all;">${sentence(20)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#eeeeee"><tr><td align="center" style="padding: 20px 0;">
<!--[if mso]><table role="presentation" width="600" align="center"><tr><td><![endif]-->
<table role="presentation" class="container" width="600" cellpadding="0" cellspacing="0" border="0" style="width: 600px; max-width: 600px; background-color: #ffffff;">
<tr><td class="hero" background="https://cdn.example.com/hero.jpg" style="background-image: url('https://cdn.example.com/hero.jpg'); background-size: cover; padding: 40px 20px;" align="center">
<img src="cid:logo-${index}@example.com" width="180" alt="Logo" style="display: block;" /><h1 style="font-family: Georgia, serif; font-size: 32px; color: #ffffff; margin: 20px 0 0 0;">${sentence(5)}</h1></td></tr>`,
  ];
  let size = parts.reduce((sum, part) => sum + part.length, 0) + footer.length + 200;
  for (let n = 0; size < targetBytes; n += 1) {
    const block = article(n);
    parts.push(block);
    size += block.length;
  }
  parts.push(footer, '</table>\n<!--[if mso]></td></tr></table><![endif]-->\n</td></tr></table>\n</body>\n</html>');
  return parts.join('\n');
}

/** `count` mails spread evenly between `minBytes` and `maxBytes`. */
export function newsletterCorpus(count: number, minBytes = 50_000, maxBytes = 300_000): string[] {
  return Array.from({ length: count }, (_, index) => newsletter(index, minBytes + Math.round(((maxBytes - minBytes) * index) / Math.max(1, count - 1))));
}
