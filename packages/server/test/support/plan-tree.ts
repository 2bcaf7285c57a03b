/** A plan's tree as its tasks' names, `A(B C) D`: subtasks in brackets, siblings in their order (sortKey). */
export function treeOf(plan: { tasks: readonly { id: string; parentId: string | null; sortKey: string; name: string }[] }, parentId: string | null = null): string {
  return plan.tasks
    .filter((task) => task.parentId === parentId)
    .sort((a, b) => (a.sortKey < b.sortKey ? -1 : 1))
    .map((task) => {
      const inner = treeOf(plan, task.id);
      return inner ? `${task.name}(${inner})` : task.name;
    })
    .join(' ');
}
