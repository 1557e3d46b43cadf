import type { TaskFacets, TaskListQuery } from '../../store/index.js';
import type { ViewerData, ViewerNode, ViewerTask, ViewerTaskListing } from './viewer-data.js';
import { renderViewerPage } from './viewer-page.js';

/** What a viewer file carries: the tasks it holds, each with its plans, pairs and nodes. */
export interface ViewerSnapshot {
  facets: TaskFacets;
  listing: ViewerTaskListing[];
  tasks: Record<string, ViewerTask>;
  /** Keyed `<episode id>#<node position>`. */
  nodes: Record<string, ViewerNode>;
}

export interface RenderViewerFileOptions {
  data: ViewerData;
  /** The database's name as the page shows it, and in the command the page suggests. */
  database: string;
  /** Which tasks (filters only; the first matching ones are taken in stored order). */
  query?: Omit<TaskListQuery, 'limit' | 'offset'>;
  /** Most tasks the file holds. @default 100 */
  maxTasks?: number;
  /** Largest data the file holds, in bytes of JSON: tasks stop being added before it is passed (the first task is always added). @default 16 MiB */
  maxBytes?: number;
}

export interface RenderedViewerFile {
  html: string;
  /** Tasks the file holds. */
  included: number;
  /** Tasks that matched the query. */
  matching: number;
  /** Why it stopped adding tasks: every matching task is in, `maxTasks`, or `maxBytes`. */
  stoppedBy: 'complete' | 'max-tasks' | 'max-bytes';
}

/**
 * The viewer as one file that needs no server: the first matching tasks of the database (in
 * stored order), each with every plan, pair and node, up to `maxTasks` tasks and `maxBytes` of
 * data, so the file stays bounded whatever the database's size. The page says what it holds and
 * how to browse the rest (`orchrm view --db`).
 *
 * @example
 * const { html, included } = await renderViewerFile({ data, database: 'demo.db', maxTasks: 50 });
 */
export async function renderViewerFile(options: RenderViewerFileOptions): Promise<RenderedViewerFile> {
  const { data, database, query = {}, maxTasks = 100, maxBytes = 16 * 1024 * 1024 } = options;
  const snapshot: ViewerSnapshot = { facets: { tasks: 0, families: [], splits: [], outcomes: [] }, listing: [], tasks: {}, nodes: {} };
  let bytes = 0;
  let matching = 0;
  let stoppedBy: RenderedViewerFile['stoppedBy'] = 'complete';
  pages: for (let offset = 0; ; offset += 200) {
    const page = data.tasks({ ...query, limit: 200, offset });
    matching = page.total;
    for (const listing of page.tasks) {
      if (snapshot.listing.length >= maxTasks) {
        stoppedBy = 'max-tasks';
        break pages;
      }
      const task = await data.task(listing.id);
      if (task === undefined) continue;
      const nodes: Record<string, ViewerNode> = {};
      for (const plan of task.plans) {
        for (const node of plan.graph?.nodes ?? []) {
          if (node.position === null) continue;
          const found = await data.node(plan.episodeId, node.position);
          if (found !== undefined) nodes[`${plan.episodeId}#${node.position}`] = found;
        }
      }
      const size = Buffer.byteLength(JSON.stringify(task)) + Buffer.byteLength(JSON.stringify(nodes)) + Buffer.byteLength(JSON.stringify(listing));
      if (snapshot.listing.length > 0 && bytes + size > maxBytes) {
        stoppedBy = 'max-bytes';
        break pages;
      }
      bytes += size;
      snapshot.listing.push(listing);
      snapshot.tasks[listing.id] = task;
      Object.assign(snapshot.nodes, nodes);
    }
    if (page.tasks.length < 200) break;
  }
  snapshot.facets = facetsOf(snapshot.listing);
  const limits = `at most ${maxTasks.toLocaleString('en-US')} tasks and ${(maxBytes / 1024 / 1024).toFixed(0)} MB of data; texts over ${data.maxTextChars.toLocaleString('en-US')} characters are cut`;
  const held =
    stoppedBy === 'complete'
      ? `This file holds all ${matching.toLocaleString('en-US')} matching tasks`
      : `This file holds the first ${snapshot.listing.length.toLocaleString('en-US')} of ${matching.toLocaleString('en-US')} matching tasks in stored order`;
  const note = `${held} (${limits}), with every plan, pair and node of each. To browse every task, serve the database: orchrm view --db ${database}`;
  const html = renderViewerPage({ mode: 'file', database, note, snapshot });
  return { html, included: snapshot.listing.length, matching, stoppedBy };
}

/** The filters' values among the tasks a file holds. */
function facetsOf(listing: readonly ViewerTaskListing[]): TaskFacets {
  const count = <Value extends string>(values: (Value | null)[]) => {
    const counts = new Map<Value, number>();
    for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts].map(([value, tasks]) => ({ value, tasks })).sort((a, b) => b.tasks - a.tasks || (a.value < b.value ? -1 : 1));
  };
  return {
    tasks: listing.length,
    families: count(listing.map((task) => task.family)),
    splits: count(listing.map((task) => task.split)),
    outcomes: count(listing.map((task) => task.outcome)),
  };
}
