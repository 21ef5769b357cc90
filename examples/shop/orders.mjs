// Orders, in memory (a real shop keeps them in its database). Each order remembers the parcel made
// for it and the last delivery state a webhook told, applied in the parcel's event order.

/**
 * @typedef {{ id: string, createdAt: string, customerName: string, customerPhone: string, relayCode: string,
 *   parcelId: string, trackingNumber: string, idempotencyKey: string, deliveryStatus: string, sequence: number,
 *   webhookDeliveries: string[] }} Order
 */

export class Orders {
  /** @type {Map<string, Order>} */
  #byId = new Map();

  /** @param {Order} order */
  add(order) {
    this.#byId.set(order.id, order);
  }

  /** @param {string} id */
  get(id) {
    return this.#byId.get(id);
  }

  /** @param {string} parcelId */
  byParcel(parcelId) {
    return [...this.#byId.values()].find(o => o.parcelId === parcelId);
  }

  /**
   * A webhook's news: applied once per delivery id, and only when newer than what the order shows
   * (deliveries may come late or out of order; `sequence` grows with each event of a parcel).
   * @param {string} deliveryId @param {string} parcelId @param {string} status @param {number | undefined} sequence
   */
  applyDelivery(deliveryId, parcelId, status, sequence) {
    const order = this.byParcel(parcelId);
    if (!order || order.webhookDeliveries.includes(deliveryId)) return false;
    order.webhookDeliveries.push(deliveryId);
    if (sequence !== undefined && sequence <= order.sequence) return false;
    order.deliveryStatus = status;
    order.sequence = sequence ?? order.sequence;
    return true;
  }
}
