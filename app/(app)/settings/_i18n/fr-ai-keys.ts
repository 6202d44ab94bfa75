/** French strings of Settings → Connections → My AI keys (les clés personnelles d’un membre pour des fournisseurs d’IA). */
import { providerNames as names } from '@/app/lib/provider-names';
import { frAiAdmin } from '../../admin/ai/_i18n/fr-ai-admin';
import type { enAiKeys } from './en-ai-keys';

export const frAiKeys: typeof enAiKeys = {
  title: 'Mes clés d’IA',
  description: 'Vos propres clés pour des fournisseurs d’IA. Dès que vous en ajoutez une, les étapes d’IA de vos workflows l’utilisent (la plus ancienne d’abord ; une étape qui nomme un modèle prend la clé dont le fournisseur le propose), votre compte paie et aucun budget de l’instance ne s’applique. Les étapes des autres membres ne peuvent pas les utiliser. Une clé est enregistrée chiffrée et n’est plus jamais affichée.',
  add: 'Ajouter une clé d’IA',
  addTitle: 'Ajouter une clé d’IA',
  empty: 'Aucune clé d’IA pour l’instant. Vos étapes d’IA utilisent les modèles configurés par votre administrateur.',
  columns: { name: 'Libellé', provider: 'Fournisseur', key: 'Clé', added: 'Ajoutée', actions: 'Actions' },
  name: 'Libellé',
  nameHint: `Pour la reconnaître, par exemple « Ma clé ${names.ai_vendor_a} ».`,
  nameRequired: 'Saisissez un libellé.',
  provider: 'Fournisseur',
  apiKey: 'Clé d’API',
  apiKeyHint: 'Enregistrée chiffrée ; seuls ses quatre derniers caractères sont affichés ensuite.',
  apiKeyOptionalHint: 'Laissez vide si votre serveur n’exige pas de clé.',
  apiKeyRequired: 'Saisissez la clé.',
  baseUrl: 'URL de base',
  baseUrlHint: 'Laissez vide pour l’adresse habituelle du fournisseur.',
  baseUrlRequiredHint: 'L’adresse de votre serveur compatible, par exemple https://models.example.com/v1.',
  // The same refusals as the administrators' form: one wording for one rule.
  baseUrlReasons: frAiAdmin.connections.baseUrlReasons,
  create: 'Ajouter la clé',
  creating: 'Ajout…',
  noKey: 'Sans clé',
  test: 'Tester',
  testLabel: (name: string) => `Tester la clé d’IA ${name}`,
  testing: 'Test…',
  testOk: (models: number, ms: number) => `Fonctionne : ${models.toLocaleString('fr')} modèle${models > 1 ? 's' : ''} listé${models > 1 ? 's' : ''} en ${ms.toLocaleString('fr')} ms.`,
  testFailed: (message: string) => `Ne fonctionne pas : ${message}`,
  delete: 'Supprimer',
  deleteLabel: (name: string) => `Supprimer la clé d’IA ${name}`,
  deleteTitle: (name: string) => `Supprimer « ${name} » ?`,
  deleteBody: 'Vos étapes d’IA utiliseront à la place les modèles configurés par votre administrateur. La clé ne pourra pas être récupérée.',
  deleteConfirm: 'Supprimer la clé',
  deleting: 'Suppression…',
};
