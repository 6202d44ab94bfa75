/** ai_vendor_c (Google generative API) against the fake Gemini server. */
import { describeProviderContract } from '../../testing/ai-fakes/contract-suite';

describeProviderContract({
  provider: 'ai_vendor_c',
  model: 'gemini-2.5-flash',
  generatePath: (stream) => (stream ? /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/ : /^\/v1beta\/models\/gemini-2\.5-flash:generateContent$/),
  keyHeader: { name: 'x-goog-api-key', value: (key) => key },
  toolsOf: (body) =>
    body.tools.flatMap((tool: any) => tool.functionDeclarations.map((fn: any) => ({ name: fn.name, description: fn.description, schema: fn.parametersJsonSchema ?? fn.parameters }))),
  outputSchemaOf: (body) => {
    if (body.generationConfig?.responseMimeType !== 'application/json') throw new Error('no JSON response mime type');
    return body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema;
  },
  systemOf: (body) => body.systemInstruction?.parts?.map((part: any) => part.text).join(''),
  reportsReasoning: true,
  hasContentFilter: true,
  // Models that cannot generateContent (embeddings) are left out.
  listing: { served: ['gemini-2.5-flash', 'gemini-2.5-pro', 'text-embedding-004'], expected: ['gemini-2.5-flash', 'gemini-2.5-pro'] },
});
