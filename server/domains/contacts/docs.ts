/**
 * The en/fr prose (summary and description) of contactsRouter's routes, one entry per procedure: it
 * lives here so that router.ts reads as wiring (procedure → service).
 */

const layers = {
  en: 'Layers, most specific first: `member_mailbox_contact`, `member_contact`, `shared_contact`, `member_mailbox_domain`, `member_domain`, `shared_domain`, `member_mailbox_default`, `member_default`, `org_default`. Each resolved field comes from the first layer that sets it (`sources` names it); notes gather from every layer that has some, in that order. A domain card covers the domain’s subdomains (the nearest domain with a card wins within a layer).',
  fr: 'Couches, de la plus précise à la plus générale : `member_mailbox_contact`, `member_contact`, `shared_contact`, `member_mailbox_domain`, `member_domain`, `shared_domain`, `member_mailbox_default`, `member_default`, `org_default`. Chaque champ résolu vient de la première couche qui le renseigne (`sources` la nomme) ; les notes s’additionnent depuis chaque couche qui en a, dans cet ordre. Une fiche de domaine couvre ses sous-domaines (dans une couche, le domaine le plus proche qui a une fiche l’emporte).',
};

const values = {
  en: '`value` is 1-320 characters: an address (`contact`) or a domain (`domain`), stored lower-case with international domain names in punycode (`xn--…`), so `Bücher.example` and `xn--bcher-kva.example` are one entry.',
  fr: '`value` compte 1 à 320 caractères : une adresse (`contact`) ou un domaine (`domain`), enregistrés en minuscules, les noms de domaine internationaux en punycode (`xn--…`) : `Bücher.example` et `xn--bcher-kva.example` sont une seule entrée.',
};

const mailbox = {
  en: 'A `mailboxId` that is not one of your mailboxes is 404 `contacts.mailbox_not_found`.',
  fr: 'Un `mailboxId` qui n’est pas l’une de vos boîtes donne 404 `contacts.mailbox_not_found`.',
};

const defaultsFields = {
  en: 'Body: `formality` (`tu`, `vous`), `tone` (`formal`, `neutral`, `casual`), `language` (BCP 47 tag), `notes` (≤ 2,000), each nullable; a field left out is null (the layer is replaced whole).',
  fr: 'Corps : `formality` (`tu`, `vous`), `tone` (`formal`, `neutral`, `casual`), `language` (étiquette BCP 47), `notes` (≤ 2 000), chacun pouvant être null ; un champ absent devient null (la couche est remplacée en entier).',
};

export const docs = {
  list: {
    summary: { en: 'List the address book', fr: 'Lister le carnet d’adresses' },
    description: {
      en: `Entries with at least one card you see in the chosen \`layer\` (\`shared\`: the organisation’s card; \`member\`: your own card or your mailbox cards; \`all\`: either), newest first by the last update of such a card. \`q\` matches part of the address or domain, the shared display name and notes, and your own notes (case-blind, ≤ 200 characters). With \`mailboxId\`, \`memberByMailbox\` holds that mailbox’s card and \`resolved\` reads from its point of view; without it, \`memberByMailbox\` holds every mailbox card of yours and \`resolved\` uses no mailbox layer. Cursor pages (\`limit\` 1-200, default 50): keep the same filters between pages; an unreadable cursor gives the first page. ${mailbox.en} ${layers.en}`,
      fr: `Les entrées qui ont au moins une fiche visible pour vous dans la couche \`layer\` choisie (\`shared\` : la fiche de l’organisation ; \`member\` : votre fiche ou vos fiches par boîte ; \`all\` : l’une ou l’autre), de la plus récemment modifiée à la plus ancienne. \`q\` cherche une partie de l’adresse ou du domaine, du nom affiché et des notes partagés, et de vos propres notes (sans tenir compte de la casse, ≤ 200 caractères). Avec \`mailboxId\`, \`memberByMailbox\` contient la fiche de cette boîte et \`resolved\` se lit de son point de vue ; sans lui, \`memberByMailbox\` contient toutes vos fiches par boîte et \`resolved\` n’utilise aucune couche de boîte. Pages par curseur (\`limit\` 1-200, 50 par défaut) : gardez les mêmes filtres d’une page à l’autre ; un curseur illisible donne la première page. ${mailbox.fr} ${layers.fr}`,
    },
  },
  put: {
    summary: { en: 'Create or replace a card', fr: 'Créer ou remplacer une fiche' },
    description: {
      en: `Creates or replaces one card of the entry \`kind\` + \`value\`: \`layer\` \`shared\` (administrators, else 403 \`auth.forbidden\`; fields \`displayName\` ≤ 200, \`language\`, \`status\` (\`customer\`, \`prospect\`, \`supplier\`, \`partner\`, \`vip\`, \`blocked\`), \`orgNotes\` ≤ 2,000; audited as \`contacts.shared_card_saved\`) or \`member\` (default; your card, or with \`mailboxId\` your card for that mailbox; fields \`formality\`, \`tone\`, \`language\`, \`signatureId\` (one of your signatures, else 404 \`contacts.signature_not_found\`), \`personalNotes\` ≤ 2,000). A field of the other layer is 400; a field left out is null. Answers the entry as the list shows it (with \`mailboxId\`, from that mailbox’s point of view). ${values.en} ${mailbox.en}`,
      fr: `Crée ou remplace une fiche de l’entrée \`kind\` + \`value\` : \`layer\` \`shared\` (administrateurs, sinon 403 \`auth.forbidden\` ; champs \`displayName\` ≤ 200, \`language\`, \`status\` (\`customer\`, \`prospect\`, \`supplier\`, \`partner\`, \`vip\`, \`blocked\`), \`orgNotes\` ≤ 2 000 ; journalisé dans l’audit comme \`contacts.shared_card_saved\`) ou \`member\` (par défaut ; votre fiche, ou avec \`mailboxId\` votre fiche pour cette boîte ; champs \`formality\`, \`tone\`, \`language\`, \`signatureId\` (l’une de vos signatures, sinon 404 \`contacts.signature_not_found\`), \`personalNotes\` ≤ 2 000). Un champ de l’autre couche donne 400 ; un champ absent devient null. Renvoie l’entrée comme la liste la montre (avec \`mailboxId\`, du point de vue de cette boîte). ${values.fr} ${mailbox.fr}`,
    },
  },
  delete: {
    summary: { en: 'Delete a card', fr: 'Supprimer une fiche' },
    description: {
      en: `Deletes one card of the entry \`kind\` + \`value\` (both required). \`layer\` \`member\` (default): with \`mailboxId\` only that mailbox’s card goes, without it only your global card goes. \`layer\` \`shared\`: the organisation’s card (administrators, else 403 \`auth.forbidden\`; audited as \`contacts.shared_card_deleted\`). 204, also when there was no such card. ${mailbox.en}`,
      fr: `Supprime une fiche de l’entrée \`kind\` + \`value\` (tous deux requis). \`layer\` \`member\` (par défaut) : avec \`mailboxId\` seule la fiche de cette boîte disparaît, sans lui seule votre fiche globale disparaît. \`layer\` \`shared\` : la fiche de l’organisation (administrateurs, sinon 403 \`auth.forbidden\` ; journalisé dans l’audit comme \`contacts.shared_card_deleted\`). 204, même sans fiche à supprimer. ${mailbox.fr}`,
    },
  },
  resolve: {
    summary: { en: 'Resolve an address', fr: 'Résoudre une adresse' },
    description: {
      en: `The resolved card of any address, with or without an entry of its own (its domains’ cards and the defaults apply), and the layer each field came from; with \`mailboxId\`, from that mailbox’s point of view. A value that is not an address resolves from the defaults alone. ${mailbox.en} ${layers.en}`,
      fr: `La fiche résolue de n’importe quelle adresse, qu’elle ait une entrée ou non (les fiches de ses domaines et les valeurs par défaut s’appliquent), et la couche d’où vient chaque champ ; avec \`mailboxId\`, du point de vue de cette boîte. Une valeur qui n’est pas une adresse se résout par les seules valeurs par défaut. ${mailbox.fr} ${layers.fr}`,
    },
  },
  defaults: {
    get: {
      summary: { en: 'Read the defaults', fr: 'Lire les valeurs par défaut' },
      description: {
        en: `The organisation’s defaults (\`org_default\`), yours (\`member_default\`) and, with \`mailboxId\`, that mailbox’s (\`member_mailbox_default\`, whose \`signatureId\` is the mailbox’s default signature). \`updatedAt\` is null while a layer was never set. ${mailbox.en}`,
        fr: `Les valeurs par défaut de l’organisation (\`org_default\`), les vôtres (\`member_default\`) et, avec \`mailboxId\`, celles de cette boîte (\`member_mailbox_default\`, dont \`signatureId\` est la signature par défaut de la boîte). \`updatedAt\` vaut null tant qu’une couche n’a jamais été renseignée. ${mailbox.fr}`,
      },
    },
    organisation: {
      summary: { en: 'Set the organisation’s defaults', fr: 'Définir les valeurs par défaut de l’organisation' },
      description: {
        en: `Administrators. Replaces the organisation’s defaults, the last layer of every member’s resolution (audited as \`contacts.org_defaults_saved\`). ${defaultsFields.en}`,
        fr: `Administrateurs. Remplace les valeurs par défaut de l’organisation, dernière couche de la résolution de chaque membre (journalisé dans l’audit comme \`contacts.org_defaults_saved\`). ${defaultsFields.fr}`,
      },
    },
    member: {
      summary: { en: 'Set my defaults', fr: 'Définir mes valeurs par défaut' },
      description: {
        en: `Replaces your defaults. ${defaultsFields.en} Also \`signatureId\`: one of your signatures (else 404 \`contacts.signature_not_found\`), or null.`,
        fr: `Remplace vos valeurs par défaut. ${defaultsFields.fr} Aussi \`signatureId\` : l’une de vos signatures (sinon 404 \`contacts.signature_not_found\`), ou null.`,
      },
    },
    mailbox: {
      summary: { en: 'Set a mailbox’s defaults', fr: 'Définir les valeurs par défaut d’une boîte' },
      description: {
        en: `Replaces the defaults of one of your mailboxes; its \`signatureId\` is the mailbox’s default signature (used when no card names one). ${defaultsFields.en} ${mailbox.en}`,
        fr: `Remplace les valeurs par défaut de l’une de vos boîtes ; son \`signatureId\` est la signature par défaut de la boîte (utilisée quand aucune fiche n’en nomme une). ${defaultsFields.fr} ${mailbox.fr}`,
      },
    },
  },
  signatures: {
    list: {
      summary: { en: 'List my signatures', fr: 'Lister mes signatures' },
      description: { en: 'Your signatures, newest first, whole (at most 50).', fr: 'Vos signatures, des plus récentes aux plus anciennes, en entier (50 au plus).' },
    },
    create: {
      summary: { en: 'Create a signature', fr: 'Créer une signature' },
      description: {
        en: '`name` 1-100, `text` ≤ 10,000 (plain text), optional `html` ≤ 100,000, sanitised when saved (scripts, forms, event handlers and unsafe links removed; remote images kept). At most 50 signatures (409 `contacts.signature_limit_reached`). A mailbox’s default signature is set in its defaults.',
        fr: '`name` 1 à 100, `text` ≤ 10 000 (texte brut), `html` facultatif ≤ 100 000, nettoyé à l’enregistrement (scripts, formulaires, gestionnaires d’événements et liens dangereux retirés ; images distantes gardées). 50 signatures au plus (409 `contacts.signature_limit_reached`). La signature par défaut d’une boîte se choisit dans ses valeurs par défaut.',
      },
    },
    update: {
      summary: { en: 'Edit a signature', fr: 'Modifier une signature' },
      description: {
        en: 'Changes the fields given (same bounds as creation). Another member’s signature, or an unknown id, is 404 `contacts.signature_not_found`.',
        fr: 'Modifie les champs donnés (mêmes bornes qu’à la création). La signature d’un autre membre, ou un identifiant inconnu, donne 404 `contacts.signature_not_found`.',
      },
    },
    delete: {
      summary: { en: 'Delete a signature', fr: 'Supprimer une signature' },
      description: {
        en: 'Deletes the signature; cards and defaults that named it no longer name one. 204. Another member’s signature, or an unknown id, is 404 `contacts.signature_not_found`.',
        fr: 'Supprime la signature ; les fiches et valeurs par défaut qui la nommaient n’en nomment plus aucune. 204. La signature d’un autre membre, ou un identifiant inconnu, donne 404 `contacts.signature_not_found`.',
      },
    },
  },
};
