export type Level = 'low' | 'high' | 'max';
