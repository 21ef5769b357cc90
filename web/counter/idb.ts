/** The little of IndexedDB the outbox needs: one database, one store keyed by `id`, as promises. */
const DB_NAME = "counter";
const STORE = "outbox";

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

function run<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  return database().then(
    db =>
      new Promise<T>((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = act(transaction.objectStore(STORE));
        // Resolved once the transaction is durable, not when the request alone succeeds.
        transaction.oncomplete = () => resolve(request.result as T);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      })
  );
}

export const store = {
  put: <T>(value: T) => run<IDBValidKey>("readwrite", s => s.put(value)),
  remove: (id: string) => run<undefined>("readwrite", s => s.delete(id)),
  all: <T>() => run<T[]>("readonly", s => s.getAll())
};
