/**
 * The little of IndexedDB an outbox needs: one store keyed by `id` in one database, as promises.
 * Each app names its own database (the counter app's is "counter"), so two apps on one origin
 * never read each other's operations.
 */
export interface KeyedStore {
  put<T>(value: T): Promise<IDBValidKey>;
  remove(id: string): Promise<undefined>;
  all<T>(): Promise<T[]>;
}

/** The store `storeName` (keyed by `id`) of the database `dbName`, opened on first use. */
export function openStore(dbName: string, storeName: string): KeyedStore {
  let opened: Promise<IDBDatabase> | null = null;

  const database = (): Promise<IDBDatabase> => {
    opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(dbName, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: "id" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  };

  const run = <T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> =>
    database().then(
      db =>
        new Promise<T>((resolve, reject) => {
          const transaction = db.transaction(storeName, mode);
          const request = act(transaction.objectStore(storeName));
          // Resolved once the transaction is durable, not when the request alone succeeds.
          transaction.oncomplete = () => resolve(request.result as T);
          transaction.onerror = () => reject(transaction.error);
          transaction.onabort = () => reject(transaction.error);
        })
    );

  return {
    put: <T>(value: T) => run<IDBValidKey>("readwrite", s => s.put(value)),
    remove: (id: string) => run<undefined>("readwrite", s => s.delete(id)),
    all: <T>() => run<T[]>("readonly", s => s.getAll())
  };
}
