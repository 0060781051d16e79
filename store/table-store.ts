import type { Resource } from '../model/resource.ts'
import type { Alongside, ChangeLog, CollectionStore, CollectionStores, Write, WriteOptions, WriteResult } from './contract.ts'
import { batchFailure, batching, running, type BatchPosition } from './batching.ts'
import { RecordBudget } from './record-budget.ts'
import { maybeUndone, resultOf, type Sequence } from './sequence.ts'
import type { Deleting, TableCollection } from './table-collection.ts'

/** What a write deletes, for what refuses it to name: a record by its id, the records of a change of many, or nothing. */
const deletingOf = (write: Write): Deleting | undefined =>
  write.op === 'delete' ? write.id : write.op === 'deleteWhere' ? 'many' : undefined

/**
 * The collections of a database, each in a table of its own (store/table-collection.ts): what
 * both engines' stores do alike. A write, alone or one of a batch, is one sequence of statements
 * (store/batching.ts's `running`, over store/collections.ts) that the engine commits in one
 * transaction, the feed recording its changes in the same transaction (`commit`).
 */
export abstract class TableStore<Collection extends TableCollection> implements CollectionStores {
  readonly #byName = new Map<string, Collection>()

  abstract readonly feed: ChangeLog
  abstract changes (collections: readonly string[], options?: { alongside?: Alongside | undefined }): Promise<string[]>

  /** Runs a write's sequence in one transaction, its changes recorded in the feed in the same transaction: its result, once committed. */
  abstract commit<T> (sequence: (now: string) => Sequence<T>, alongside?: Alongside): Promise<T>

  /** What the failure of a write of `collection` stands for (`deleting`: what it deletes): as it is, unless the engine says otherwise. */
  refusal (_collection: Collection, err: unknown, _deleting: Deleting | undefined): unknown {
    return err
  }

  /** Takes `collections` in, each by its name. */
  protected keep (collections: Collection[]): void {
    for (const collection of collections) this.#byName.set(collection.resource.name, collection)
  }

  /** Every collection, in the order they were taken in. */
  protected get all (): Iterable<Collection> {
    return this.#byName.values()
  }

  protected named (name: string): Collection {
    const collection = this.#byName.get(name)
    if (collection === undefined) throw new Error(`no collection ${name}`)
    return collection
  }

  collection (resource: Resource): CollectionStore {
    return this.named(resource.name)
  }

  async write (write: Write, { records, dryRun = false, alongside }: WriteOptions): Promise<WriteResult> {
    const writes = (name: string) => this.named(name).writes
    try {
      return await resultOf(this.commit(now => maybeUndone(running(writes, write, now, new RecordBudget(records)), dryRun), alongside))
    } catch (err) {
      throw this.refusal(this.named(write.collection), err, deletingOf(write))
    }
  }

  async batch (next: (done: readonly WriteResult[]) => Write | undefined, { records, alongside }: WriteOptions): Promise<WriteResult[]> {
    const position: BatchPosition = { started: false, index: 0, write: undefined, done: false }
    try {
      return await this.commit(now => batching(name => this.named(name).writes, next, now, position, new RecordBudget(records, true)),
        alongside)
    } catch (err) {
      const write = position.write
      throw batchFailure(position, write === undefined ? err : this.refusal(this.named(write.collection), err, deletingOf(write)))
    }
  }
}
