/* global window, document, SwaggerUIBundle */
/**
 * Starts Swagger UI on the API reference page (server/http/api-reference/reference-page.ts), in the
 * browser. Served as a file from this origin because the page's policy runs no inline script.
 *
 * - The document is fetched here (not by Swagger UI from a `url`), so the page can show its own loading
 *   and error states, and so Swagger UI never reads a document address from the page's query
 *   (`queryConfigEnabled` stays off as well).
 * - The session cookie scheme is taken out of what Swagger UI is given: its Authorize dialog would
 *   otherwise offer to set a `session` cookie from script. The reader authorises with an API key only.
 * - Every request Swagger UI makes leaves without cookies (`credentials: 'omit'`): try-it speaks as the
 *   key the reader typed, never as a signed-in reader's session.
 * - Nothing is persisted (`persistAuthorization: false`): the key lives in the page's memory and is
 *   gone on reload. No validator badge (it would load an image from another origin).
 * - Tags start folded and the schema list hidden: the document has a few hundred operations, which
 *   Swagger UI would otherwise draw all at once (seconds of rendering); the filter box finds a tag.
 * - The document is handed to Swagger UI in the OpenAPI 3.0 dialect (./openapi-30.js, loaded before this
 *   file): its 3.1 path took seconds more to show the same document.
 * - Swagger UI's dark theme (its stylesheet's `html.dark-mode`) follows the browser's preference unless
 *   the member chose a theme in the application (`data-theme`, set with the class by the server).
 */
(function startReference() {
  const root = document.getElementById('reference');
  const loading = document.getElementById('reference-loading');
  const failed = document.getElementById('reference-failed');
  if (!root || !loading || !failed) return;

  function followBrowserTheme() {
    const html = document.documentElement;
    if (html.dataset.theme) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => html.classList.toggle('dark-mode', dark.matches);
    apply();
    dark.addEventListener('change', apply);
  }

  function withoutSessionScheme(description) {
    const schemes = description.components && description.components.securitySchemes;
    if (schemes) delete schemes.sessionCookie;
    return description;
  }

  function omitCookies(request) {
    request.credentials = 'omit';
    return request;
  }

  function showFailure() {
    loading.hidden = true;
    failed.hidden = false;
  }

  followBrowserTheme();
  loading.hidden = false;
  fetch(root.dataset.document, { credentials: 'omit', headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`the document answered ${response.status}`);
      return response.json();
    })
    .then((description) => {
      window.ui = SwaggerUIBundle({
        spec: window.mailflowReference.forSwaggerUi(withoutSessionScheme(description)),
        domNode: root,
        presets: [SwaggerUIBundle.presets.apis],
        layout: 'BaseLayout',
        deepLinking: true,
        docExpansion: 'none',
        defaultModelsExpandDepth: -1,
        filter: true,
        persistAuthorization: false,
        withCredentials: false,
        queryConfigEnabled: false,
        validatorUrl: null,
        requestInterceptor: omitCookies,
        onComplete: () => {
          loading.hidden = true;
        },
      });
    })
    .catch(showFailure);
})();
