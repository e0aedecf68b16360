// Not the app's: an error here must not count for it.
export const broken: number = 'no';
