import type { Kysely, Migration } from 'kysely';

/** Tasks, dependencies, resources and assignments, comments, baselines, idempotency keys, the mail outbox. */
export const planning: Migration = {
  async up(db: Kysely<unknown>) {
    // Bumped by every plan write, so a process can tell whether its cached plan is current.
    await db.schema.alterTable('projects').addColumn('plan_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable('tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('parent_id', 'text')
      .addColumn('sort_key', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('duration_min', 'integer', (c) => c.notNull())
      .addColumn('work_min', 'integer', (c) => c.notNull())
      .addColumn('progress_pct', 'double precision', (c) => c.notNull())
      .addColumn('constraint_kind', 'text', (c) => c.notNull())
      .addColumn('constraint_date', 'text')
      .addColumn('deadline', 'text')
      .addColumn('calendar_id', 'text')
      .addColumn('cost_fixed', 'double precision', (c) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('color', 'text')
      .addColumn('wbs', 'text')
      .addColumn('external_id', 'text')
      .addColumn('start_at', 'text')
      .addColumn('finish_at', 'text')
      .addColumn('is_critical', 'integer', (c) => c.notNull())
      .addColumn('total_float_min', 'integer')
      .addColumn('free_float_min', 'integer')
      .addColumn('early_start_at', 'text')
      .addColumn('early_finish_at', 'text')
      .addColumn('late_start_at', 'text')
      .addColumn('late_finish_at', 'text')
      .addColumn('actual_start_at', 'text')
      .addColumn('actual_finish_at', 'text')
      .addColumn('actual_duration_min', 'integer')
      .addColumn('remaining_duration_min', 'integer')
      .addColumn('manually_scheduled', 'integer', (c) => c.notNull())
      .addColumn('manual_start_at', 'text')
      .addColumn('manual_finish_at', 'text')
      .addColumn('leveling_delay_min', 'integer', (c) => c.notNull())
      .addColumn('task_type', 'text', (c) => c.notNull())
      .addColumn('effort_driven', 'integer', (c) => c.notNull())
      .addColumn('duration_optimistic_min', 'integer')
      .addColumn('duration_pessimistic_min', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('tasks_project_number', ['project_id', 'number'])
      .execute();
    await db.schema.createIndex('tasks_project_external').on('tasks').columns(['project_id', 'external_id']).execute();
    await db.schema.createIndex('tasks_project_updated').on('tasks').columns(['project_id', 'updated_at', 'id']).execute();

    await db.schema
      .createTable('dependencies')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('predecessor_id', 'text', (c) => c.notNull().references('tasks.id'))
      .addColumn('successor_id', 'text', (c) => c.notNull().references('tasks.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('lag_min', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('dependencies_pair', ['predecessor_id', 'successor_id'])
      .execute();
    await db.schema.createIndex('dependencies_project').on('dependencies').column('project_id').execute();

    await db.schema
      .createTable('resources')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('user_id', 'text', (c) => c.references('users.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('resources_project_user', ['project_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('assignments')
      .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id'))
      .addColumn('resource_id', 'text', (c) => c.notNull().references('resources.id'))
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('units_pct', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('assignments_pk', ['task_id', 'resource_id'])
      .execute();
    await db.schema.createIndex('assignments_project').on('assignments').column('project_id').execute();

    await db.schema
      .createTable('comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull().references('tasks.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('mentions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('edited_at', 'text')
      .execute();
    await db.schema.createIndex('comments_task').on('comments').columns(['task_id', 'created_at']).execute();

    await db.schema
      .createTable('baselines')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slot', 'integer')
      .addColumn('is_main', 'integer', (c) => c.notNull())
      .addColumn('captured_at', 'text', (c) => c.notNull())
      .addColumn('captured_by', 'text')
      .addColumn('task_count', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('baselines_project').on('baselines').column('project_id').execute();
    await db.schema
      .createTable('baseline_tasks')
      .addColumn('baseline_id', 'text', (c) => c.notNull().references('baselines.id'))
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('start_at', 'text')
      .addColumn('finish_at', 'text')
      .addColumn('duration_min', 'integer', (c) => c.notNull())
      .addColumn('work_min', 'integer', (c) => c.notNull())
      .addColumn('cost_fixed', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('baseline_tasks_pk', ['baseline_id', 'task_id'])
      .execute();

    await db.schema
      .createTable('idempotency_keys')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('response', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
      .execute();

    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('sent_at', 'text')
      .addColumn('error', 'text')
      .execute();
  },
};
