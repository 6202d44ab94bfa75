export type AiProvider = 'ai_vendor_a' | 'ai_vendor_b' | 'ai_vendor_c' | 'ai_vendor_d' | 'ai_vendor_e' | 'ai_local' | 'ai_generic_compatible';
export interface AiEndpoint { provider: AiProvider; baseUrl: string | null; apiKey: string | null }
export interface AiModelList { models: string[]; supportsTools: boolean }
