/**
 * The two secrets keys are derived from (keys.ts), and the variables that name them. In AWS
 * each function is told the ARN of, and granted, only the secrets its declaration lists
 * (infra/constructs/access.ts `secrets`).
 */
export const SECRET_ROOTS = {
  service: { arnVariable: 'SERVICE_SECRET_ARN', valueVariable: 'SERVICE_SECRET' },
  integrations: { arnVariable: 'INTEGRATION_SECRET_ARN', valueVariable: 'INTEGRATION_SECRET' },
} as const;

export type SecretRoot = keyof typeof SECRET_ROOTS;
