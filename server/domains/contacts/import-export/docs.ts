/** The en/fr prose of the address book's import routes and of its export download (server/http/contacts-export-route.ts). */

const mapping = {
  en: 'vCard 4.0 or 3.0 (folded lines, escapes, 3.0 quoted-printable with its CHARSET): an individual card (KIND absent or `individual`) gives one `contact` entry per EMAIL, a `KIND:org` card `domain` entries (from `X-DOMAIN`, else its EMAILs’ domains); the shared layer takes FN (else ORG) as `displayName`, LANG as `language`, NOTE as `orgNotes`, `X-STATUS` as `status`; the member layer LANG as `language`, NOTE as `personalNotes`, `X-FORMALITY` and `X-TONE`. CSV: a header line with `value`, optionally `kind` (inferred when empty: an `@` makes a contact) and the layer’s fields by their API names (shared: `displayName`, `language`, `status`, `orgNotes`; member: `formality`, `tone`, `language`, `personalNotes`); any other header refuses the file (400 naming it); a `\'` our export put before `=`, `+`, `-` or `@` is taken off. A line sets only the fields the file carries (an empty CSV cell clears one); signatures are never imported.',
  fr: 'vCard 4.0 ou 3.0 (lignes repliées, échappements, quoted-printable de la 3.0 avec son CHARSET) : une fiche individuelle (KIND absent ou `individual`) donne une entrée `contact` par EMAIL, une fiche `KIND:org` des entrées `domain` (depuis `X-DOMAIN`, sinon les domaines de ses EMAIL) ; la couche partagée prend FN (sinon ORG) comme `displayName`, LANG comme `language`, NOTE comme `orgNotes`, `X-STATUS` comme `status` ; la couche du membre LANG comme `language`, NOTE comme `personalNotes`, `X-FORMALITY` et `X-TONE`. CSV : une ligne d’en-têtes avec `value`, éventuellement `kind` (déduit s’il est vide : un `@` donne un contact) et les champs de la couche sous leur nom d’API (partagée : `displayName`, `language`, `status`, `orgNotes` ; membre : `formality`, `tone`, `language`, `personalNotes`) ; tout autre en-tête refuse le fichier (400 qui le nomme) ; un `\'` que notre export a mis devant `=`, `+`, `-` ou `@` est retiré. Une ligne ne règle que les champs que le fichier porte (une cellule CSV vide en efface un) ; les signatures ne sont jamais importées.',
};

const bounds = {
  en: '`layer` `member` (default; with `mailboxId` your cards for that mailbox, else 404 `contacts.mailbox_not_found`) or `shared` (administrators, else 403 `auth.forbidden`). The file: at most 2 MiB (413 `request.payload_too_large`) and 5,000 entries (400 `request.bad_request`, `details.reason` `too_many_entries`); a file that is not text, holds no card, or whose CSV headers do not fit is 400 with its `details.reason`.',
  fr: '`layer` `member` (par défaut ; avec `mailboxId` vos fiches pour cette boîte, sinon 404 `contacts.mailbox_not_found`) ou `shared` (administrateurs, sinon 403 `auth.forbidden`). Le fichier : 2 Mio au plus (413 `request.payload_too_large`) et 5 000 entrées au plus (400 `request.bad_request`, `details.reason` `too_many_entries`) ; un fichier qui n’est pas du texte, ne contient aucune fiche ou dont les en-têtes CSV ne conviennent pas donne 400 avec son `details.reason`.',
};

const exportLayer = {
  en: 'One layer of the address book as a download, streamed in (kind, value) order: `layer` `shared` (the organisation’s cards, which every member reads) or `member` (default; your own cards, or with `mailboxId` your cards for that mailbox, else 404 `contacts.mailbox_not_found`).',
  fr: 'Une couche du carnet d’adresses en téléchargement, diffusée dans l’ordre (kind, value) : `layer` `shared` (les fiches de l’organisation, que tout membre lit) ou `member` (par défaut ; vos fiches, ou avec `mailboxId` vos fiches pour cette boîte, sinon 404 `contacts.mailbox_not_found`).',
};

export const importExportDocs = {
  preview: {
    summary: { en: 'Preview an address book import', fr: 'Prévisualiser un import de carnet d’adresses' },
    description: {
      en: `Reads the file and says what each line would become, writing nothing: \`create\` (no card of yours in that layer yet), \`update\`, \`unchanged\` (the card already holds those values), or \`error\` with its problems (\`column\`, \`reason\`, \`message\`, \`value\`), e.g. an address that is not one, an unknown status, a second line of the same entry, an unterminated card. ${mapping.en} ${bounds.en}`,
      fr: `Lit le fichier et dit ce que deviendrait chaque ligne, sans rien écrire : \`create\` (pas encore de fiche à vous dans cette couche), \`update\`, \`unchanged\` (la fiche a déjà ces valeurs) ou \`error\` avec ses problèmes (\`column\`, \`reason\`, \`message\`, \`value\`), par exemple une adresse qui n’en est pas une, un statut inconnu, une seconde ligne de la même entrée, une fiche non terminée. ${mapping.fr} ${bounds.fr}`,
    },
  },
  import: {
    summary: { en: 'Import an address book', fr: 'Importer un carnet d’adresses' },
    description: {
      en: `Writes the file’s lines as the preview describes them, every one or none, in one transaction. One error line refuses the whole import (422 \`contacts.import_rejected\`, \`details.count\` and at most 100 lines in \`details.rejected\`) unless \`skipInvalid\` is true, which writes the valid lines and lists the others. Unchanged lines are not written. An import of the shared layer is audited (\`contacts.shared_cards_imported\`). ${mapping.en} ${bounds.en}`,
      fr: `Écrit les lignes du fichier comme l’aperçu les décrit, toutes ou aucune, en une seule transaction. Une ligne en erreur refuse tout l’import (422 \`contacts.import_rejected\`, \`details.count\` et au plus 100 lignes dans \`details.rejected\`) sauf si \`skipInvalid\` vaut true, qui écrit les lignes valides et liste les autres. Les lignes inchangées ne sont pas écrites. Un import de la couche partagée est journalisé dans l’audit (\`contacts.shared_cards_imported\`). ${mapping.fr} ${bounds.fr}`,
    },
  },
  export: {
    vcard: {
      summary: { en: 'Export the address book as vCard', fr: 'Exporter le carnet d’adresses en vCard' },
      description: {
        en: `${exportLayer.en} vCard 4.0, one card per entry: FN the display name (else the value), EMAIL the address, a domain as \`KIND:org\` with \`X-DOMAIN\`, LANG, NOTE, and \`X-STATUS\`, \`X-FORMALITY\`, \`X-TONE\` for the fields vCard has no name for; the file imports back unchanged. Signatures are not exported.`,
        fr: `${exportLayer.fr} vCard 4.0, une fiche par entrée : FN le nom affiché (sinon la valeur), EMAIL l’adresse, un domaine en \`KIND:org\` avec \`X-DOMAIN\`, LANG, NOTE, et \`X-STATUS\`, \`X-FORMALITY\`, \`X-TONE\` pour les champs que vCard ne nomme pas ; le fichier se réimporte sans changement. Les signatures ne sont pas exportées.`,
      },
      success: { en: 'The vCard file.', fr: 'Le fichier vCard.' },
    },
    csv: {
      summary: { en: 'Export the address book as CSV', fr: 'Exporter le carnet d’adresses en CSV' },
      description: {
        en: `${exportLayer.en} CSV with the import’s columns (\`kind\`, \`value\`, then the layer’s fields), so the file imports back. To protect spreadsheet users a field starting with \`=\`, \`+\`, \`-\`, \`@\`, a tab or a carriage return is prefixed with \`'\` so a spreadsheet never runs it as a formula (the import takes it off again); \`raw=true\` exports the stored text unchanged, for programs. Signatures are not exported.`,
        fr: `${exportLayer.fr} CSV avec les colonnes de l’import (\`kind\`, \`value\`, puis les champs de la couche), pour que le fichier se réimporte. Pour protéger les utilisateurs de tableurs, un champ commençant par \`=\`, \`+\`, \`-\`, \`@\`, une tabulation ou un retour chariot est précédé de \`'\` pour qu’un tableur ne l’exécute jamais comme une formule (l’import le retire) ; \`raw=true\` exporte le texte enregistré tel quel, pour les programmes. Les signatures ne sont pas exportées.`,
      },
      success: { en: 'The CSV file.', fr: 'Le fichier CSV.' },
    },
  },
};
