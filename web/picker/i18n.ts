/** The picker's words in French (the default), Arabic (right to left) and English. */

export type Lang = "fr" | "ar" | "en";

export interface Messages {
  nearMe: string;
  locating: string;
  locationRefused: string;
  wilaya: string;
  anyWilaya: string;
  city: string;
  anyCity: string;
  search: string;
  searchPlaceholder: string;
  list: string;
  start: string;
  loading: string;
  failed: string;
  none: string;
  found: (n: number) => string;
  openNow: string;
  closedNow: string;
  today: string;
  closedToday: string;
  closedOn: (from: string, to: string) => string;
  closedOnArrival: (day: string) => string;
  full: string;
  closedForNew: string;
  /** A point found by the wilaya it belonged to before 2026: where it is now. */
  nowInWilaya: (code: string, name: string) => string;
  unavailable: string;
  chosen: string;
  nothingChosen: string;
  required: string;
  /** A point set by the shop that cannot take this parcel (closed on arrival, full): said when the form is sent. */
  chooseAnother: (name: string, why: string) => string;
  selected: (name: string) => string;
  map: string;
  km: (km: string) => string;
  weekdays: string[];
}

const fr: Messages = {
  nearMe: "Près de moi",
  locating: "Recherche de votre position…",
  locationRefused: "Position indisponible : choisissez une wilaya ou cherchez par nom.",
  wilaya: "Wilaya",
  anyWilaya: "Toutes les wilayas",
  city: "Commune",
  anyCity: "Toutes les communes",
  search: "Rechercher",
  searchPlaceholder: "Nom, adresse, commune…",
  list: "Points relais",
  start: "Choisissez une wilaya, cherchez par nom ou utilisez votre position.",
  loading: "Recherche…",
  failed: "La recherche a échoué. Réessayez.",
  none: "Aucun point relais trouvé.",
  found: n => (n === 1 ? "1 point relais" : `${n} points relais`),
  openNow: "Ouvert",
  closedNow: "Fermé",
  today: "Aujourd'hui :",
  closedToday: "fermé",
  closedOn: (from, to) => (from === to ? `Fermé le ${from}` : `Fermé du ${from} au ${to}`),
  closedOnArrival: day => `Fermé le jour de l'arrivée (${day}) : indisponible`,
  full: "Complet : indisponible",
  closedForNew: "Fermé ces jours-ci : indisponible",
  nowInWilaya: (code, name) => `Désormais wilaya ${code} – ${name}`,
  unavailable: "indisponible",
  chosen: "Point choisi :",
  nothingChosen: "Aucun point choisi.",
  required: "Choisissez un point relais.",
  chooseAnother: (name, why) => `${name} — ${why}. Choisissez un autre point relais.`,
  selected: name => `${name} choisi.`,
  map: "Carte des points relais",
  km: km => `${km} km`,
  weekdays: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."]
};

const ar: Messages = {
  nearMe: "بالقرب مني",
  locating: "جارٍ تحديد موقعك…",
  locationRefused: "الموقع غير متاح: اختر ولاية أو ابحث بالاسم.",
  wilaya: "الولاية",
  anyWilaya: "كل الولايات",
  city: "البلدية",
  anyCity: "كل البلديات",
  search: "بحث",
  searchPlaceholder: "الاسم، العنوان، البلدية…",
  list: "نقاط الاستلام",
  start: "اختر ولاية أو ابحث بالاسم أو استعمل موقعك.",
  loading: "جارٍ البحث…",
  failed: "تعذّر البحث. أعد المحاولة.",
  none: "لم يتم العثور على أي نقطة استلام.",
  found: n => `${n} نقطة استلام`,
  openNow: "مفتوح",
  closedNow: "مغلق",
  today: "اليوم:",
  closedToday: "مغلق",
  closedOn: (from, to) => (from === to ? `مغلق يوم ${from}` : `مغلق من ${from} إلى ${to}`),
  closedOnArrival: day => `مغلق يوم الوصول (${day}): غير متاح`,
  full: "ممتلئ: غير متاح",
  closedForNew: "مغلق هذه الأيام: غير متاح",
  nowInWilaya: (code, name) => `أصبحت تابعة للولاية ${code} – ${name}`,
  unavailable: "غير متاح",
  chosen: "النقطة المختارة:",
  nothingChosen: "لم يتم اختيار أي نقطة.",
  required: "اختر نقطة استلام.",
  chooseAnother: (name, why) => `${name} — ${why}. اختر نقطة استلام أخرى.`,
  selected: name => `تم اختيار ${name}.`,
  map: "خريطة نقاط الاستلام",
  km: km => `${km} كم`,
  weekdays: ["الأحد", "الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"]
};

const en: Messages = {
  nearMe: "Near me",
  locating: "Finding your position…",
  locationRefused: "Position unavailable: choose a wilaya or search by name.",
  wilaya: "Wilaya",
  anyWilaya: "All wilayas",
  city: "Town",
  anyCity: "All towns",
  search: "Search",
  searchPlaceholder: "Name, address, town…",
  list: "Relay points",
  start: "Choose a wilaya, search by name or use your position.",
  loading: "Searching…",
  failed: "The search failed. Try again.",
  none: "No relay point found.",
  found: n => (n === 1 ? "1 relay point" : `${n} relay points`),
  openNow: "Open",
  closedNow: "Closed",
  today: "Today:",
  closedToday: "closed",
  closedOn: (from, to) => (from === to ? `Closed on ${from}` : `Closed ${from} to ${to}`),
  closedOnArrival: day => `Closed on the arrival day (${day}): unavailable`,
  full: "Full: unavailable",
  closedForNew: "Closed these days: unavailable",
  nowInWilaya: (code, name) => `Now in wilaya ${code} – ${name}`,
  unavailable: "unavailable",
  chosen: "Chosen point:",
  nothingChosen: "No point chosen.",
  required: "Choose a relay point.",
  chooseAnother: (name, why) => `${name} — ${why}. Choose another relay point.`,
  selected: name => `${name} chosen.`,
  map: "Map of the relay points",
  km: km => `${km} km`,
  weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
};

export const MESSAGES: Record<Lang, Messages> = { fr, ar, en };

/** `ar-DZ` → ar; anything unknown → fr. */
export function langOf(value: string | null | undefined): Lang {
  const base = (value ?? "").toLowerCase().split("-")[0];
  return base === "ar" || base === "en" ? base : "fr";
}
