import MiniSearch, { type AsPlainObject, type SearchOptions } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

/**
 * Top-k querying over a serialized MiniSearch index. MiniSearch tokenizes, normalizes and
 * indexes; this answers its queries with the same scores (same expansions, BM25 and field
 * boosts, AND/OR combination, `score * matched terms`) but keeps the postings in typed arrays
 * and a score per entry in flat arrays, so a query over 30,000 matching entries allocates no
 * object per posting, and only the groups (pages) that can appear in the asked-for results
 * are sorted and turned into hits. MiniSearch.search builds a result object per matching
 * entry and sorts them all: 60+ ms on 10,000 pages when every term is in every entry.
 * `test/search-postings.test.ts` checks both give the same ranking.
 *
 * Entries (MiniSearch documents) are grouped by one stored field (the page); a group ranks
 * by its best entry, ties by the sum of its entries' scores (added in entry order), then by
 * its first entry's position (the tree order the index was built in).
 */
export interface PostingsOptions {
  /** The index's fields; their order is the order scores are added in (MiniSearch's `fields`). */
  fields: string[];
  processTerm: (term: string) => string | null;
  /** The index's search options: boost, prefix and fuzzy (booleans or functions), weights, maxFuzzy, bm25. */
  searchOptions: SearchOptions;
  /** The stored field entries are grouped by. */
  groupBy: string;
}

export interface PostingsHit<S> {
  score: number;
  /** The index terms this entry matched (what an excerpt marks). */
  terms: string[];
  stored: S;
}

export interface RankedGroup<S> {
  key: string;
  /** The best entry's score. */
  score: number;
  /** The group's matching entries, best first (ties: entry order). */
  hits: PostingsHit<S>[];
}

export interface TopOptions {
  /** Groups wanted, best first. */
  limit: number;
  /** Groups that may appear (default: all). */
  include?: (key: string) => boolean;
}

interface FieldPostings { docs: Int32Array; freqs: Uint32Array }

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const defaults = { weights: { fuzzy: 0.45, prefix: 0.375 }, maxFuzzy: 6, bm25: { k: 1.2, b: 0.7, d: 0.5 } };

export class SearchPostings<S extends Record<string, unknown>> {
  private readonly docCount: number;
  private readonly fieldBoost: number[];
  private readonly avgLength: number[];
  /** Per field: each entry's length in terms. */
  private readonly lengths: Float64Array[];
  /** Per term (index in `terms`), per field. */
  private readonly postings: (FieldPostings | undefined)[][] = [];
  private readonly termNames: string[] = [];
  private readonly terms = new SearchableMap<number>();
  private readonly stored: S[];
  private readonly groupOf: Int32Array;
  private readonly groupKeys: string[] = [];
  private readonly groupDocs: number[][] = [];

  private readonly options: PostingsOptions;

  constructor(js: AsPlainObject, options: PostingsOptions) {
    this.options = options;
    if (js.serializationVersion !== 2 || js.nextId !== js.documentCount) {
      throw new Error(`search index: serialization ${js.serializationVersion} with ${js.nextId - js.documentCount} removed entries is not supported`);
    }
    const n = js.documentCount;
    this.docCount = n;
    const boost = options.searchOptions.boost ?? {};
    this.fieldBoost = options.fields.map((f) => boost[f] || 1);
    const slotOf = new Map(options.fields.map((f, slot) => [js.fieldIds[f], slot]));
    this.avgLength = options.fields.map((f) => js.averageFieldLength[js.fieldIds[f]!]!);
    this.lengths = options.fields.map(() => new Float64Array(n));
    this.stored = new Array<S>(n);
    this.groupOf = new Int32Array(n);
    const groupIndex = new Map<string, number>();
    for (let doc = 0; doc < n; doc++) {
      const lengths = js.fieldLength[doc]!;
      options.fields.forEach((f, slot) => { this.lengths[slot]![doc] = lengths[js.fieldIds[f]!] ?? 0; });
      const stored = (js.storedFields[doc] ?? {}) as S;
      this.stored[doc] = stored;
      const key = String(stored[options.groupBy]);
      let g = groupIndex.get(key);
      if (g === undefined) {
        g = this.groupKeys.length;
        groupIndex.set(key, g);
        this.groupKeys.push(key);
        this.groupDocs.push([]);
      }
      this.groupOf[doc] = g;
      this.groupDocs[g]!.push(doc);
    }
    // Terms go in in the serialized order, so prefix and fuzzy expansions come out in MiniSearch's order.
    for (const [term, byField] of js.index) {
      const perField: (FieldPostings | undefined)[] = [];
      for (const [fieldId, freqs] of Object.entries(byField)) {
        const slot = slotOf.get(Number(fieldId));
        if (slot === undefined) continue;
        const keys = Object.keys(freqs as Record<string, number>);
        const docs = new Int32Array(keys.length);
        const tf = new Uint32Array(keys.length);
        keys.forEach((k, i) => { docs[i] = Number(k); tf[i] = (freqs as Record<string, number>)[k]!; });
        perField[slot] = { docs, freqs: tf };
      }
      this.terms.set(term, this.postings.length);
      this.termNames.push(term);
      this.postings.push(perField);
    }
  }

  /** The best `limit` groups for `query`: entries matching every term, or, when none does, any term. */
  top(query: string, { limit, include }: TopOptions): RankedGroup<S>[] {
    const queryTerms = tokenize(query).map((t) => this.options.processTerm(t)).filter((t): t is string => !!t);
    if (queryTerms.length === 0 || limit <= 0) return [];
    const n = this.docCount;
    const { score, termScore, specsMatched, distinctMatched, lastDistinct, touched, best, total } = this.scratch();
    const distinct = [...new Set(queryTerms)];
    const derivedUsed = new Set<number>();

    queryTerms.forEach((term, i) => {
      const mark = distinct.indexOf(term) + 1;
      let count = 0;
      for (const { termIndex, weight } of this.expand(term, i, queryTerms)) {
        derivedUsed.add(termIndex);
        this.postings[termIndex]!.forEach((p, slot) => {
          if (!p) return;
          const df = p.docs.length;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          const { k, b, d } = { ...defaults.bm25, ...this.options.searchOptions.bm25 };
          const avg = this.avgLength[slot]!;
          const lengths = this.lengths[slot]!;
          const fieldWeight = weight * this.fieldBoost[slot]!;
          for (let j = 0; j < df; j++) {
            const doc = p.docs[j]!;
            const tf = p.freqs[j]!;
            // MiniSearch's calcBM25Score and weighting, in its order of operations (same floats).
            const s = fieldWeight * (idf * (d + tf * (k + 1) / (tf + k * (1 - b + b * lengths[doc]! / avg))));
            if (termScore[doc] === 0) {
              touched[count++] = doc;
              termScore[doc] = s;
            } else termScore[doc] = termScore[doc]! + s;
          }
        });
      }
      for (let j = 0; j < count; j++) {
        const doc = touched[j]!;
        score[doc] = score[doc]! + termScore[doc]!;
        termScore[doc] = 0;
        specsMatched[doc] = specsMatched[doc]! + 1;
        if (lastDistinct[doc] !== mark) {
          lastDistinct[doc] = mark;
          distinctMatched[doc] = distinctMatched[doc]! + 1;
        }
      }
    });

    let needed = queryTerms.length;
    let any = false;
    for (let doc = 0; doc < n && !any; doc++) any = specsMatched[doc] === needed;
    if (!any) needed = 1;
    const matches = (doc: number) => specsMatched[doc]! >= needed;

    const groups = this.groupKeys.length;
    for (let doc = 0; doc < n; doc++) {
      if (!matches(doc)) continue;
      const s = score[doc]! * distinctMatched[doc]!;
      score[doc] = s;
      const g = this.groupOf[doc]!;
      if (s > best[g]!) best[g] = s;
      total[g] = total[g]! + s;
    }
    const candidates: number[] = [];
    for (let g = 0; g < groups; g++) if (best[g]! > 0) candidates.push(g);
    /** The groups that can be among the first `limit`, in rank order. */
    const select = (from: number[]) => {
      let kept = from;
      if (from.length > limit) {
        // The limit-th best score: every group at or above it may rank (ties are settled by the sort).
        const bests = Float64Array.from(from, (g) => best[g]!).sort();
        const threshold = bests[bests.length - limit]!;
        kept = from.filter((g) => best[g]! >= threshold);
      }
      return kept.sort((a, b) => best[b]! - best[a]! || total[b]! - total[a]! || a - b);
    };
    let kept = select(candidates);
    if (include) {
      // Asked of the best groups only; of every group only when too many of the best are left out.
      const allowed = kept.filter((g) => include(this.groupKeys[g]!));
      kept = allowed.length >= limit || kept.length === candidates.length
        ? allowed
        : select(candidates.filter((g) => include(this.groupKeys[g]!)));
    }

    const termsOf = (doc: number) => [...derivedUsed].filter((t) => this.postings[t]!.some((p) => p !== undefined && contains(p.docs, doc))).map((t) => this.termNames[t]!);
    return kept.slice(0, limit).map((g) => ({
      key: this.groupKeys[g]!,
      score: best[g]!,
      hits: this.groupDocs[g]!.filter(matches)
        .sort((a, b) => score[b]! - score[a]! || a - b)
        .map((doc) => ({ score: score[doc]!, terms: termsOf(doc), stored: this.stored[doc]! })),
    }));
  }

  private scratchArrays?: ReturnType<SearchPostings<S>['allocate']>;

  /** Per-entry and per-group working arrays, zeroed: reused by every query (a query runs to its end synchronously). */
  private scratch() {
    if (!this.scratchArrays) return (this.scratchArrays = this.allocate());
    const a = this.scratchArrays;
    for (const array of [a.score, a.specsMatched, a.distinctMatched, a.lastDistinct, a.best, a.total]) array.fill(0);
    return a;
  }

  private allocate() {
    const n = this.docCount;
    const groups = this.groupKeys.length;
    return {
      score: new Float64Array(n),
      /** Zero between query terms (the scoring loop resets what it touched). */
      termScore: new Float64Array(n),
      specsMatched: new Uint16Array(n),
      distinctMatched: new Uint16Array(n),
      lastDistinct: new Int32Array(n),
      touched: new Int32Array(n),
      best: new Float64Array(groups),
      total: new Float64Array(groups),
    };
  }

  /** The index terms a query term stands for, with their weights, as MiniSearch's executeQuerySpec expands it. */
  private expand(term: string, i: number, queryTerms: string[]): { termIndex: number; weight: number }[] {
    const o = this.options.searchOptions;
    const prefix = typeof o.prefix === 'function' ? o.prefix(term, i, queryTerms) : o.prefix === true;
    const fuzzy = typeof o.fuzzy === 'function' ? o.fuzzy(term, i, queryTerms) : (o.fuzzy || false);
    const weights = { ...defaults.weights, ...o.weights };
    const out: { termIndex: number; weight: number }[] = [];
    const exact = this.terms.get(term);
    if (exact !== undefined) out.push({ termIndex: exact, weight: 1 });
    const prefixed = new Set<string>();
    if (prefix) {
      for (const [found, termIndex] of this.terms.atPrefix(term)) {
        const distance = found.length - term.length;
        if (!distance) continue;
        prefixed.add(found);
        out.push({ termIndex, weight: weights.prefix * found.length / (found.length + 0.3 * distance) });
      }
    }
    if (fuzzy) {
      const f = fuzzy === true ? 0.2 : fuzzy;
      const maxDistance = f < 1 ? Math.min(o.maxFuzzy ?? defaults.maxFuzzy, Math.round(term.length * f)) : f;
      if (maxDistance) {
        for (const [found, [termIndex, distance]] of this.terms.fuzzyGet(term, maxDistance)) {
          if (!distance || prefixed.has(found)) continue;
          out.push({ termIndex, weight: weights.fuzzy * found.length / (found.length + distance) });
        }
      }
    }
    return out;
  }
}

/** Binary search in ascending entry numbers. */
function contains(docs: Int32Array, doc: number): boolean {
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = docs[mid]!;
    if (at === doc) return true;
    if (at < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
