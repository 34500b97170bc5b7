// Fixture: breaks console-is-a-leaf (core code importing the console).
import { consolePage } from '../../operator/console/console-page';

export const intake = () => consolePage;
