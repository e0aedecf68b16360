export type Level = 'low' | 'high';
