import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { Outline, type Move } from '../src/plan/outline';

/** A plan's tree written as `a(a1 a2) b`: what the tests start from and compare with. */
function tasksOf(tree: string): { id: string; parentId: string | null; sortKey: string }[] {
  const tasks: { id: string; parentId: string | null; sortKey: string }[] = [];
  const parents: (string | null)[] = [null];
  let last: string | null = null;
  for (const token of tree.match(/[()]|[^\s()]+/g) ?? []) {
    if (token === '(') parents.push(last);
    else if (token === ')') parents.pop();
    else {
      tasks.push({ id: token, parentId: parents.at(-1)!, sortKey: String(tasks.length).padStart(4, '0') });
      last = token;
    }
  }
  return tasks;
}

function treeOf(outline: Outline, parentId: string | null = null): string {
  return outline
    .childrenOf(parentId)
    .map((id) => (outline.childrenOf(id).length > 0 ? `${id}(${treeOf(outline, id)})` : id))
    .join(' ');
}

/** Applies moves as the server does: each placement in turn, after or before a sibling, else last. */
function applied(outline: Outline, moves: readonly Move[]): Outline {
  for (const { id, placement } of moves) {
    const siblings = outline.childrenOf(placement.parentId).filter((sibling) => sibling !== id);
    const index = placement.afterTaskId ? siblings.indexOf(placement.afterTaskId) + 1 : placement.beforeTaskId ? siblings.indexOf(placement.beforeTaskId) : siblings.length;
    outline.move(id, placement.parentId, index);
  }
  return outline;
}

describe('restructuring the outline as Microsoft Project does', () => {
  const start = 'a(a1 a2 a3) b c';
  const run = (operation: (outline: Outline) => Move[]) => {
    const planned = new Outline(tasksOf(start));
    const moves = operation(planned);
    // The moves, applied to the server's tree, give the tree the outline planned.
    expect(treeOf(applied(new Outline(tasksOf(start)), moves))).toBe(treeOf(planned));
    return treeOf(planned);
  };

  it('indents under the sibling above, as its last subtask; the first of a list stays', () => {
    expect(run((outline) => outline.indent(['b']))).toBe('a(a1 a2 a3 b) c');
    expect(run((outline) => outline.indent(['a2', 'a3']))).toBe('a(a1(a2 a3)) b c');
    expect(run((outline) => outline.indent(['a1']))).toBe(start);
  });

  it('outdents after the parent, the following siblings becoming subtasks, so no row moves', () => {
    expect(run((outline) => outline.outdent(['a2']))).toBe('a(a1) a2(a3) b c');
    expect(run((outline) => outline.outdent(['a2', 'a3']))).toBe('a(a1) a2 a3 b c');
    expect(run((outline) => outline.outdent(['b']))).toBe(start);
  });

  it('moves up and down among siblings, with subtasks; a selection moves as a block', () => {
    expect(run((outline) => outline.moveDown(['a']))).toBe('b a(a1 a2 a3) c');
    expect(run((outline) => outline.moveUp(['a2', 'a3']))).toBe('a(a2 a3 a1) b c');
    expect(run((outline) => outline.moveDown(['a1', 'a2']))).toBe('a(a3 a1 a2) b c');
    expect(run((outline) => outline.moveUp(['a']))).toBe(start);
  });

  it('moves a selected summary with its subtasks: a selected subtask goes along, not on its own', () => {
    expect(new Outline(tasksOf(start)).tops(['a2', 'a', 'c'])).toEqual(['a', 'c']);
    expect(run((outline) => outline.indent(['b', 'a1']))).toBe('a(a1 a2 a3 b) c');
  });

  it('drops dragged rows before, after or into another row, keeping their order; never into themselves', () => {
    expect(run((outline) => outline.drop(['c'], 'a1', 'before'))).toBe('a(c a1 a2 a3) b');
    expect(run((outline) => outline.drop(['b', 'c'], 'a2', 'after'))).toBe('a(a1 a2 b c a3)');
    expect(run((outline) => outline.drop(['c', 'b'], 'a3', 'into'))).toBe('a(a1 a2 a3(b c))');
    expect(run((outline) => outline.drop(['a'], 'a2', 'into'))).toBe(start);
  });

  const trees = ['a(a1 a2(x y) a3) b(b1) c', 'a b c d e', 'a(b(c(d)))', 'p(q r s t) u(v)'];
  const operations = ['indent', 'outdent', 'moveUp', 'moveDown'] as const;
  test.prop([fc.constantFrom(...trees), fc.array(fc.tuple(fc.constantFrom(...operations), fc.array(fc.nat(20), { maxLength: 3 })), { maxLength: 6 })])(
    'restore puts every moved task back, whatever happened to them since',
    (tree, steps) => {
      const original = new Outline(tasksOf(tree));
      const ids = original.ordered();
      const server = new Outline(tasksOf(tree));
      const moved = new Set<string>();
      // The operations move the tasks in `server` itself: it stands for the plan after them.
      for (const [operation, picks] of steps) {
        const moves = server[operation](picks.map((pick) => ids[pick % ids.length]!));
        for (const move of moves) moved.add(move.id);
      }
      expect(treeOf(applied(server, original.restore(moved)))).toBe(tree);
    },
  );
});
