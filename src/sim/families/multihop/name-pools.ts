/**
 * Word pools the knowledge base draws names from. Surnames, company stems and city names are
 * built from syllables so that even 100,000 people get unique full names, while small bases
 * still share first names and surnames (which is what makes retrieval by name imperfect).
 */
export const FIRST_NAMES = [
  'Aaron', 'Abigail', 'Adrian', 'Alice', 'Amara', 'Andre', 'Anita', 'Arthur', 'Beatrice', 'Benjamin',
  'Bianca', 'Boris', 'Bruno', 'Camila', 'Carla', 'Carlos', 'Cecilia', 'Clara', 'Colin', 'Dalia',
  'Daniel', 'Dana', 'Delia', 'Dmitri', 'Edgar', 'Elena', 'Elias', 'Elif', 'Emil', 'Esther',
  'Fatima', 'Felix', 'Fiona', 'Gabriel', 'Gemma', 'Gideon', 'Greta', 'Hana', 'Hector', 'Helena',
  'Hugo', 'Ibrahim', 'Ida', 'Ingrid', 'Irene', 'Isaac', 'Ivan', 'Jasper', 'Jonas', 'Julia',
  'Kai', 'Karim', 'Katrin', 'Keiko', 'Laila', 'Lars', 'Leon', 'Lina', 'Lorenzo', 'Lucia',
  'Magnus', 'Maia', 'Malik', 'Marco', 'Marta', 'Mateo', 'Milan', 'Mina', 'Nadia', 'Nikolai',
  'Nina', 'Noah', 'Nora', 'Oliver', 'Olga', 'Omar', 'Oscar', 'Paloma', 'Paul', 'Petra',
  'Priya', 'Quentin', 'Rafael', 'Rania', 'Rosa', 'Ruben', 'Sabine', 'Samir', 'Sara', 'Selim',
  'Sofia', 'Stefan', 'Tamar', 'Teodor', 'Tessa', 'Tobias', 'Ursula', 'Valentin', 'Vera', 'Viktor',
  'Wanda', 'Wilhelm', 'Xenia', 'Yara', 'Yusuf', 'Zora', 'Anton', 'Leila', 'Rohan', 'Ada',
] as const;

export const SURNAME_STARTS = [
  'Ash', 'Bel', 'Brack', 'Cal', 'Carr', 'Dal', 'Den', 'Dorn', 'Ell', 'Farn',
  'Fen', 'Gar', 'Hal', 'Hart', 'Hol', 'Kel', 'Kin', 'Lan', 'Lind', 'Mar',
  'Mer', 'Mor', 'Nor', 'Ock', 'Pem', 'Quill', 'Rad', 'Ren', 'Ros', 'Sel',
  'Stan', 'Tal', 'Thorn', 'Vand', 'Wal', 'Wes', 'Wick', 'Yar', 'Zell', 'Brom',
] as const;

export const SURNAME_ENDS = [
  'by', 'croft', 'dale', 'den', 'ford', 'gate', 'ham', 'hurst', 'ley', 'low',
  'mere', 'mont', 'more', 'ner', 'ridge', 'ston', 'ton', 'vane', 'well', 'wick',
  'worth', 'yard', 'ing', 'ett', 'ander', 'ova', 'ez', 'ski', 'elli', 'sen',
] as const;

export const COMPANY_ONSETS = [
  'Zen', 'Vor', 'Quan', 'Lux', 'Nex', 'Sol', 'Ver', 'Cor', 'Tri', 'Ax',
  'Bri', 'Cal', 'Dyn', 'Elo', 'Fyr', 'Gly', 'Hel', 'Ion', 'Kra', 'Myr',
  'Nov', 'Opt', 'Pyx', 'Rho', 'Syn', 'Tel', 'Umb', 'Val', 'Xer', 'Zyl',
] as const;

export const COMPANY_MIDDLES = ['', 'a', 'i', 'o', 'ar', 'en', 'is', 'on', 'ul', 'ex', 'im', 'or', 'av', 'et', 'il', 'un', 'ys', 'el', 'ad', 'om'] as const;

export const COMPANY_ENDINGS = ['trix', 'gen', 'tek', 'lyn', 'vox', 'dex', 'nova', 'sys', 'pex', 'ra', 'ium', 'tica', 'wave', 'forge', 'line'] as const;

export const COMPANY_SUFFIXES = ['Labs', 'Systems', 'Holdings', 'Group', 'Works', 'Dynamics', 'Partners', 'Industries', 'Analytics', 'Foods'] as const;

export const CITY_STARTS = [
  'Amber', 'Ash', 'Bay', 'Black', 'Bright', 'Brook', 'Cedar', 'Clear', 'Cold', 'Crow',
  'Deer', 'Dun', 'East', 'Elm', 'Fair', 'Fern', 'Fox', 'Glen', 'Gold', 'Green',
  'Grey', 'Hawk', 'High', 'Iron', 'Kings', 'Lake', 'Long', 'Maple', 'Mill', 'Moss',
  'North', 'Oak', 'Pine', 'Red', 'River', 'Rock', 'Rose', 'Salt', 'Silver', 'Stone',
  'Storm', 'Sun', 'Thorn', 'West', 'White', 'Willow', 'Winter', 'Wolf', 'Wren', 'Ember',
] as const;

export const CITY_ENDS = [
  'haven', 'field', 'ford', 'mouth', 'port', 'wood', 'burgh', 'minster', 'water', 'bridge',
  'brook', 'cliff', 'dale', 'fall', 'gate', 'hollow', 'marsh', 'mere', 'moor', 'reach',
  'ridge', 'shire', 'stead', 'stone', 'vale', 'view', 'well', 'wick', 'worth', 'crest',
  'ton', 'by', 'holm', 'ness', 'more',
] as const;

/** Prefixes that give a second, larger city name space (`Port Ashhaven`) for big bases. */
export const CITY_MODIFIERS = ['', 'New', 'Port', 'Upper', 'Lower', 'Old', 'Fort', 'Saint', 'Mount', 'Little', 'Great', 'South', 'Far'] as const;

export const COUNTRIES = ['Valdoria', 'Estrellia', 'Norvania', 'Kelmark', 'Osteria', 'Tarsinia', 'Lumeria', 'Brevonia'] as const;

export const HOBBIES = ['sailing', 'chess', 'birdwatching', 'pottery', 'long-distance running', 'jazz piano', 'gardening', 'rock climbing'] as const;
export const TRAITS = ['meticulous', 'generous', 'quietly ambitious', 'curious', 'blunt but fair', 'tireless', 'witty', 'patient'] as const;
export const TOPICS = ['supply chains', 'urban design', 'open data', 'small-batch manufacturing', 'public transit', 'river ecology', 'early music', 'cryptography'] as const;
export const PRODUCTS = ['industrial sensors', 'frozen meals', 'navigation software', 'solar inverters', 'medical imaging tools', 'office furniture', 'logistics platforms', 'specialty paper'] as const;
export const LANDMARKS = ['old stone bridge', 'covered market', 'harbour lighthouse', 'botanical garden', 'clock tower', 'summer festival', 'railway museum', 'cathedral'] as const;
