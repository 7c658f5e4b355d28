/**
 * Imported first by the benchmarks that serve the API in their own process: one JSON access
 * line per request would be measured too and drown the report (the logger reads the level
 * when its module loads, hence a module of its own, evaluated before the others).
 */
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
