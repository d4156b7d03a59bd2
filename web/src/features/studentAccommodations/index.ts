// A student's own accommodations on the taking and practice pages (#32 item 1): read aloud, large
// text, high contrast, line guide and answer masking. Kept apart from the teacher's screens
// (features/accommodations) so that the taking page's first load carries none of those.
export { NO_ACCOMMODATIONS, useMyAccommodations, type Accommodations } from './useMyAccommodations';
export { LineGuide, PageAccommodations } from './PageAccommodations';
export { MaskedChoice, useRevealed } from './MaskedChoice';
export { ReadAloudControls, Spoken, useReadAloud, type Highlight, type ReadAloud, type Segment } from './readAloud';
