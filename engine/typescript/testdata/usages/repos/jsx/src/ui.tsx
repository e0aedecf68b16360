import { Button } from 'fakelib';

export const el = <Button label="x" onPress={() => {}} />;
