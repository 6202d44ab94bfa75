/**
 * The HTML of the API reference page (GET /api/reference): our own header in the reader's language
 * (title, the English/Français switch, how to try an operation with a key, links to the key settings and
 * to the raw document) around the element Swagger UI renders the document into. No inline script or
 * style: the page's policy allows scripts and styles from this origin only, and `browser/reference.js`
 * reads what it needs (the document's address, the texts of its states) from data attributes. Pure.
 */
import { referenceAssetPath, referencePagePath } from './reference-paths';
import type { ReferenceLanguage } from './reference-preferences';

const texts = {
  en: {
    title: 'API reference',
    lead: 'Every route of this instance, described by its OpenAPI document.',
    tryIt:
      'To call an operation from this page: choose <strong>Authorize</strong>, paste an API key (<code>mk_…</code>) under <strong>apiKey</strong>, then open the operation and choose <strong>Try it out</strong>.',
    keyNote:
      'The key stays in this page: it is sent to this instance only, as <code>Authorization: Bearer</code>, is never stored, and is forgotten when you reload or leave the page.',
    chromeNote: '',
    manageKeys: 'Manage your API keys',
    document: 'OpenAPI document (JSON)',
    languages: 'Language',
    loading: 'Loading the reference… This can take a few seconds: the document describes every route of the instance.',
    failed: 'The reference could not be loaded.',
    retry: 'Try again',
    noScript: 'The interactive reference needs JavaScript. The OpenAPI document stays readable as JSON (link above).',
  },
  fr: {
    title: 'Référence de l’API',
    lead: 'Toutes les routes de cette instance, décrites par son document OpenAPI.',
    tryIt:
      'Pour appeler une opération depuis cette page : choisissez <strong>Authorize</strong>, collez une clé d’API (<code>mk_…</code>) sous <strong>apiKey</strong>, puis ouvrez l’opération et choisissez <strong>Try it out</strong>.',
    keyNote:
      'La clé reste dans cette page : elle n’est envoyée qu’à cette instance, en <code>Authorization: Bearer</code>, n’est jamais enregistrée, et est oubliée dès que vous rechargez ou quittez la page.',
    chromeNote: 'Les boutons de l’outil (Authorize, Try it out, Execute…) restent en anglais ; les textes de l’API sont en français.',
    manageKeys: 'Gérer vos clés d’API',
    document: 'Document OpenAPI (JSON)',
    languages: 'Langue',
    loading: 'Chargement de la référence… Cela peut prendre quelques secondes : le document décrit toutes les routes de l’instance.',
    failed: 'La référence n’a pas pu être chargée.',
    retry: 'Réessayer',
    noScript: 'La référence interactive a besoin de JavaScript. Le document OpenAPI reste lisible en JSON (lien ci-dessus).',
  },
} satisfies Record<ReferenceLanguage, Record<string, string>>;

const languageNames: Record<ReferenceLanguage, string> = { en: 'English', fr: 'Français' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/** The document the page renders, in the page's language (a path on this origin, so try-it calls this instance). */
export function referenceDocumentPath(language: ReferenceLanguage): string {
  return `/api/v1/openapi.json?lang=${language}`;
}

function languageSwitch(current: ReferenceLanguage): string {
  const links = (['en', 'fr'] as const).map((language) => {
    const marker = language === current ? ' aria-current="true"' : '';
    return `<a href="${referencePagePath}?lang=${language}" lang="${language}" hreflang="${language}"${marker}>${languageNames[language]}</a>`;
  });
  return `<nav class="reference-languages" aria-label="${texts[current].languages}">${links.join('')}</nav>`;
}

export function renderReferencePage(input: { language: ReferenceLanguage; theme: 'light' | 'dark' | null; brandName: string }): string {
  const { language, theme } = input;
  const t = texts[language];
  const documentPath = referenceDocumentPath(language);
  const brand = escapeHtml(input.brandName);
  return `<!doctype html>
<html lang="${language}"${theme ? ` data-theme="${theme}"` : ''}${theme === 'dark' ? ' class="dark-mode"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${theme ?? 'light dark'}">
<meta name="referrer" content="same-origin">
<title>${t.title} · ${brand}</title>
<link rel="stylesheet" href="${referenceAssetPath('swagger-ui.css')}">
<link rel="stylesheet" href="${referenceAssetPath('reference.css')}">
</head>
<body>
<header class="reference-header">
<div class="reference-heading">
<p class="reference-brand">${brand}</p>
<h1>${t.title}</h1>
<p>${t.lead}</p>
</div>
${languageSwitch(language)}
</header>
<section class="reference-intro" aria-label="${escapeHtml(t.title)}">
<p>${t.tryIt}</p>
<p>${t.keyNote}</p>
${t.chromeNote ? `<p>${t.chromeNote}</p>` : ''}
<p class="reference-links"><a href="/settings/api-keys">${t.manageKeys}</a><a href="${documentPath}">${t.document}</a></p>
</section>
<main class="reference-main">
<noscript><p class="reference-state">${t.noScript}</p></noscript>
<p id="reference-loading" class="reference-state" role="status" hidden>${t.loading}</p>
<p id="reference-failed" class="reference-state reference-failed" role="alert" hidden>${t.failed} <a href="${referencePagePath}?lang=${language}">${t.retry}</a></p>
<div id="reference" data-document="${documentPath}"></div>
</main>
<script src="${referenceAssetPath('swagger-ui-bundle.js')}"></script>
<script src="${referenceAssetPath('openapi-30.js')}"></script>
<script src="${referenceAssetPath('reference.js')}"></script>
</body>
</html>
`;
}
