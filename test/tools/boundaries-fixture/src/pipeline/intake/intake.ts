// Fixture: breaks console-is-a-leaf (core code importing the console).
import { consolePage } from '../../console/console-page';

export const intake = () => consolePage;
