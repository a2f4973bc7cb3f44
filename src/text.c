/* text.c - the edit distance behind the core's "did you mean" suggestions (text.h). */
#include "text.h"

#include <string.h>

int text_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int row[128];

	if (la > 127 || lb > 127)
		return 1000;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int cur = row[j];
			int v = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
		}
	}
	return row[lb];
}
