/**
 * Issue texts as TF-IDF vectors: words lower-cased, stop words dropped, reduced to their
 * stem with the Porter stemmer (the `stemmer` package), weighted by sublinear term frequency
 * times smoothed inverse document frequency over the issues clustered together, and
 * L2-normalized, so the cosine similarity of two vectors is their dot product.
 */
import { stemmer } from 'stemmer';

export type Vector = Map<string, number>;

const STOP_WORDS = new Set(`
a about above after again against all also am an and any are as at be because been before being below between both but by
can cannot could did do does doing done dont down during each even ever every few for from further get gets getting got had
has have having he hello help her here hers hi him his how i if in into is it its itself just know let like make me more most
much my need needs no nor not now of off on once only or other our ours out over own please really same see she should so
some still such than thank thanks that the their them then there these they this those through to too try trying under until
up us use used using very want was we were what when where which while who why will with would yes yet you your yours
anyone someone something anything hey team again since way ok okay seems seem one two way able
`.trim().split(/\s+/));

/**
 * The stems of a text's significant words, in order (repeats kept). `surface` collects, per
 * stem, how often each written form appeared (labels are written with real words).
 */
export function terms(text: string, surface?: Map<string, Map<string, number>>): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().replace(/['’]/g, '').split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw) || /^\d+$/.test(raw)) continue;
    const stem = stemmer(raw);
    out.push(stem);
    if (surface) {
      const forms = surface.get(stem) ?? new Map<string, number>();
      forms.set(raw, (forms.get(raw) ?? 0) + 1);
      surface.set(stem, forms);
    }
  }
  return out;
}

/** TF-IDF vectors of the documents, each L2-normalized. */
export function tfidf(documents: string[][]): Vector[] {
  const df = new Map<string, number>();
  for (const doc of documents) for (const term of new Set(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const n = documents.length;
  return documents.map((doc) => {
    const counts = new Map<string, number>();
    for (const term of doc) counts.set(term, (counts.get(term) ?? 0) + 1);
    const vector: Vector = new Map();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = (1 + Math.log(count)) * (Math.log((1 + n) / (1 + df.get(term)!)) + 1);
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [term, weight] of vector) vector.set(term, weight / norm);
    return vector;
  });
}

export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small) dot += weight * (large.get(term) ?? 0);
  return dot;
}

/** The mean of vectors (a cluster's centroid), not normalized. */
export function centroid(vectors: Vector[]): Vector {
  const sum: Vector = new Map();
  for (const v of vectors) for (const [term, weight] of v) sum.set(term, (sum.get(term) ?? 0) + weight / vectors.length);
  return sum;
}
