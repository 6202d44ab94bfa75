/** Textes français des fenêtres Importer et Exporter du carnet d’adresses (app/(app)/contacts/_components/import-export/). */
import { pluralFr as plural } from '@/app/i18n/plural';
import type { ImportExportTexts } from './en-import-export';

export const frImportExport: ImportExportTexts = {
  importButton: 'Importer',
  exportButton: 'Exporter',
  layer: 'Carnet',
  layers: { member: 'Mes fiches', mailbox: (address: string) => `Mes fiches pour ${address}`, shared: 'Fiches de l’organisation (partagées)' },
  format: 'Format',
  formats: { vcard: 'vCard (.vcf)', csv: 'CSV (.csv)' },
  import: {
    title: 'Importer des contacts',
    description: 'Un fichier vCard (4.0 ou 3.0) ou CSV. Vous voyez ce que devient chaque ligne avant que rien ne soit écrit.',
    file: 'Choisir un fichier',
    fileHint: 'vCard : FN, EMAIL, ORG, NOTE, LANG, KIND. CSV : une ligne d’en-têtes avec value, et éventuellement kind et les champs de la couche. 2 Mo et 5 000 entrées au plus.',
    reading: 'Lecture du fichier…',
    tooLarge: 'Le fichier dépasse 2 Mo. Découpez-le et importez les parties.',
    unreadable: 'Le fichier n’a pas pu être lu.',
    empty: 'Le fichier est vide.',
    chooseOther: 'Choisir un autre fichier',
    summary: (name: string, lines: number) => `${name} : ${plural(lines, 'ligne', 'lignes')}`,
    counts: { create: 'Nouvelles', update: 'Modifiées', unchanged: 'Inchangées', error: 'Erreurs' },
    actions: { create: 'Nouvelle', update: 'Modifiée', unchanged: 'Inchangée', error: 'Erreur' },
    columns: { line: 'Ligne', entry: 'Adresse ou domaine', action: 'Devient', details: 'Détails' },
    line: (line: number) => `Ligne ${line}`,
    noValue: '(aucune)',
    moreLines: (count: number) => `${plural(count, 'autre ligne non affichée', 'autres lignes non affichées')}.`,
    errorsNote: (count: number) =>
      `${plural(count, 'ligne contient', 'lignes contiennent')} des erreurs. Corrigez le fichier et choisissez-le à nouveau, ou n’importez que les lignes valides.`,
    nothingToDo: 'Chaque ligne est déjà dans votre carnet telle qu’elle est dans le fichier.',
    submit: (count: number) => `Importer ${plural(count, 'ligne', 'lignes')}`,
    submitValid: (count: number) => `Importer ${plural(count, 'la ligne valide', 'les lignes valides')}`,
    submitting: 'Import en cours…',
    doneTitle: 'Import terminé',
    done: (created: number, updated: number, unchanged: number, skipped: number) =>
      [
        `${plural(created, 'fiche créée', 'fiches créées')}`,
        `${updated} modifiée(s)`,
        `${unchanged} inchangée(s)`,
        ...(skipped > 0 ? [`${plural(skipped, 'ligne en erreur laissée', 'lignes en erreur laissées')} de côté`] : []),
      ].join(' · '),
    rejectedTitle: (count: number) => `${plural(count, 'ligne ne peut', 'lignes ne peuvent')} pas être importée(s) : rien n’a été écrit`,
    reasons: {
      binary: 'Le fichier n’est pas du texte : choisissez un fichier vCard (.vcf) ou CSV.',
      empty: 'Le fichier ne contient aucune fiche (BEGIN:VCARD … END:VCARD).',
      tooManyEntries: 'Le fichier contient plus de 5 000 entrées : découpez-le.',
      unknownHeader: (header: string) => `La colonne « ${header} » n’est pas un champ de ce carnet.`,
      duplicateHeader: (header: string) => `La colonne « ${header} » apparaît deux fois.`,
      valueMissing: 'Le fichier n’a pas de colonne « value » (l’adresse ou le domaine).',
      unreadable: 'Le fichier n’est pas lisible comme CSV.',
    },
  },
  export: {
    title: 'Exporter des contacts',
    description: 'Téléchargez les fiches d’un carnet dans un fichier, à garder ou à importer ailleurs.',
    csvSafety: 'En CSV, un texte commençant par =, +, - ou @ est précédé d’une apostrophe pour qu’un tableur ne l’exécute jamais comme une formule.',
    download: 'Télécharger',
  },
  close: 'Fermer',
  cancel: 'Annuler',
};
