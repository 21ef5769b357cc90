// The shop's one product, and the words the pages use for each delivery state.

export const PRODUCT = {
  id: "djellaba-brodee",
  name: "Djellaba brodée",
  description: "Lin et coton, broderie faite main à Tlemcen. Taille unique.",
  priceDzd: 4500,
  weightG: 900
};

/** What the customer reads for each parcel status; a status added later is shown as it came. */
export const DELIVERY_STATES = {
  CREATED: "Commande enregistrée : colis en préparation",
  READY_FOR_PICKUP: "Colis prêt, en attente du transporteur",
  PICKED_UP: "Colis remis au transporteur",
  IN_TRANSIT: "En route vers votre point relais",
  AT_RELAY: "Prêt à retirer au point relais",
  RELAY_NOTIFIED: "Prêt à retirer au point relais (SMS envoyé)",
  DELIVERED: "Retiré : merci !",
  RETURN_PENDING: "Non retiré : retour en cours",
  RETURNED: "Retourné à la boutique",
  LOST: "Colis perdu : nous vous contactons",
  DAMAGED: "Colis endommagé : nous vous contactons",
  CANCELLED: "Commande annulée"
};

/** @param {string} status */
export function deliveryState(status) {
  return Object.prototype.hasOwnProperty.call(DELIVERY_STATES, status) ? DELIVERY_STATES[status] : status;
}
