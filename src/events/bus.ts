/**
 * A small typed publish/subscribe bus. Delivery is synchronous and lossless: a subscriber that throws
 * does not stop the others (the error is reported to `onError`).
 */
export class EventBus<Events extends { [K in keyof Events]: unknown }> {
  private readonly handlers = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends keyof Events>(type: K, handler: (payload: Events[K]) => void): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler as (payload: never) => void);
    return () => set!.delete(handler as (payload: never) => void);
  }

  emit<K extends keyof Events>(type: K, payload: Events[K]): void {
    const set = this.handlers.get(type);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        (handler as (p: Events[K]) => void)(payload);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  /** number of subscribers of `type` */
  count<K extends keyof Events>(type: K): number {
    return this.handlers.get(type)?.size ?? 0;
  }
}
