/**
 * Evaluated before the X-Ray SDK loads (tracer.ts imports it first): outside Lambda there is
 * no trace to join, so the SDK starts in manual mode instead of installing its async hook
 * (cls-hooked: a destroy hook on every promise of the process, about 10% of a request's CPU
 * in the local server and benchmarks; issue 17). Inside Lambda, tracing stays automatic.
 */
if (!process.env.AWS_LAMBDA_FUNCTION_NAME) process.env.AWS_XRAY_MANUAL_MODE ??= '1';
