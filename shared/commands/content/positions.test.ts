import { describe, expect, it } from 'vitest';
import { keepsPlace, positionAmong, type TreeNode } from './tree.ts';
import { positionAtEnd, positionNextTo } from '../sites/tree.ts';

/**
 * Fractional positions (fractional-indexing keys, compared as strings) of the content tree
 * (spaces and collections under a parent) and of site structure (site spaces, sections).
 */
const node = (type: TreeNode['type'], id: string, position: string): TreeNode => ({ type, id, position, item: {} }) as TreeNode;
const siblings = [node('space', 'a', 'a0'), node('collection', 'b', 'a1'), node('space', 'c', 'a2')];
const sorted = (...positions: string[]) => [...positions].sort();

describe('positionAmong', () => {
  it('puts a node at the end when no position is given', () => {
    const p = positionAmong(siblings, 'new', undefined);
    expect(p > 'a2').toBe(true);
    // The first key ('a0') with a random tail: two requests that read the same siblings at once differ.
    expect(positionAmong([], 'new', undefined)).toMatch(/^a0[0-9A-Za-z]{3}[1-9A-Za-z]$/);
    expect(positionAmong([], 'new', undefined)).not.toBe(positionAmong([], 'new', undefined));
    expect(positionAmong(siblings, 'new', undefined)).not.toBe(positionAmong(siblings, 'new', undefined));
  });

  it('steps over positions left equal by earlier writes instead of failing', () => {
    const tied = [node('space', 'a', 'a0'), node('space', 'b', 'a1'), node('space', 'c', 'a1'), node('space', 'd', 'a2')];
    const after = positionAmong(tied, 'new', { after: { type: 'space', space: 'b' } });
    expect(sorted('a1', after, 'a2')).toEqual(['a1', after, 'a2']);
    const before = positionAmong(tied, 'new', { before: { type: 'space', space: 'c' } });
    expect(sorted('a1', before, 'a2')).toEqual(['a1', before, 'a2']);
  });

  it('puts a node right before or after the referenced sibling', () => {
    const before = positionAmong(siblings, 'new', { before: { type: 'collection', collection: 'b' } });
    expect(sorted('a0', before, 'a1')).toEqual(['a0', before, 'a1']);
    const after = positionAmong(siblings, 'new', { after: { type: 'collection', collection: 'b' } });
    expect(sorted('a1', after, 'a2')).toEqual(['a1', after, 'a2']);
    const first = positionAmong(siblings, 'new', { before: { type: 'space', space: 'a' } });
    expect(first < 'a0').toBe(true);
    const last = positionAmong(siblings, 'new', { after: { type: 'space', space: 'c' } });
    expect(last > 'a2').toBe(true);
  });

  it('ignores the moving node itself among the siblings', () => {
    // Moving a after c: between c and the end, not between a's old place and b.
    const p = positionAmong(siblings, 'a', { after: { type: 'space', space: 'c' } });
    expect(p > 'a2').toBe(true);
    // Moving c to the end: after b (its own old position does not count).
    const end = positionAmong(siblings, 'c', undefined);
    expect(end > 'a1').toBe(true);
  });

  it('refuses a reference that is not a sibling of that type, naming the field', () => {
    for (const position of [
      { before: { type: 'space' as const, space: 'nope' } },
      { after: { type: 'space' as const, space: 'b' } }, // b is a collection
    ]) {
      expect(() => positionAmong(siblings, 'new', position)).toThrowError(/^position: /);
      try {
        positionAmong(siblings, 'new', position);
      } catch (error) {
        expect((error as { status: number }).status).toBe(400);
      }
    }
    // The node itself is no reference either.
    expect(() => positionAmong(siblings, 'a', { before: { type: 'space', space: 'a' } })).toThrowError('position: space a is not in the target collection');
  });
});

describe('keepsPlace', () => {
  it('is true only when the node keeps its neighbours', () => {
    expect(keepsPlace(siblings, 'c', undefined)).toBe(true);
    expect(keepsPlace(siblings, 'b', undefined)).toBe(false);
    expect(keepsPlace(siblings, 'a', { before: { type: 'collection', collection: 'b' } })).toBe(true);
    expect(keepsPlace(siblings, 'b', { after: { type: 'space', space: 'a' } })).toBe(true);
    expect(keepsPlace(siblings, 'b', { before: { type: 'space', space: 'a' } })).toBe(false);
    // Same id, other type: not the same neighbour.
    expect(keepsPlace(siblings, 'a', { before: { type: 'space', space: 'b' } })).toBe(false);
    // Not among the siblings at all (another parent): it moves.
    expect(keepsPlace(siblings, 'elsewhere', undefined)).toBe(false);
  });
});

describe('site structure positions', () => {
  const items = [{ id: 'x', position: 'a0' }, { id: 'y', position: 'a1' }, { id: 'z', position: 'a2' }];

  it('positionAtEnd follows the greatest position, in any order', () => {
    expect(positionAtEnd([])).toBe('a0');
    const end = positionAtEnd([items[2]!, items[0]!, items[1]!]);
    expect(end > 'a2').toBe(true);
  });

  it('positionNextTo lands strictly between the target and its neighbour', () => {
    const before = positionNextTo(items, 'y', 'before');
    expect(sorted('a0', before, 'a1')).toEqual(['a0', before, 'a1']);
    const after = positionNextTo(items, 'y', 'after');
    expect(sorted('a1', after, 'a2')).toEqual(['a1', after, 'a2']);
    expect(positionNextTo(items, 'x', 'before') < 'a0').toBe(true);
    expect(positionNextTo(items, 'z', 'after') > 'a2').toBe(true);
  });

  it('keeps inserting between two neighbours without running out of room', () => {
    let high = 'a1';
    const low = 'a0';
    for (let i = 0; i < 50; i++) {
      const next = positionNextTo([{ id: 'l', position: low }, { id: 'h', position: high }], 'h', 'before');
      expect(next > low && next < high, `${low} < ${next} < ${high}`).toBe(true);
      high = next;
    }
  });
});
